// A version as the store reads it back: the row every query of versions returns, and the columns that
// read it, so that recording, reading and judging all speak of one shape.
export type Kind = 'consumer' | 'store'

export interface VersionRow {
  id: number
  application: string
  kind: Kind
  version: string
  branch: string
  content_hash: string
  created_at: string
}

/** The columns of a VersionRow, over `versions v JOIN applications a`. */
export const VERSION_COLUMNS = `v.id, a.name AS application, a.kind, v.version, v.branch, v.content_hash, v.created_at`
