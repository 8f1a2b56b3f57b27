// What one planted bug is: a switch of one of the kit's fixture stores that breaks exactly one promise of the
// document or of HTTP, named by that promise's id, and the verifier run that is enough to catch it.

export interface PlantedBug {
  /** The promise it breaks, by the id the verifier's promises registry gives it. */
  promise: string
  /** The fixture store it is planted in: test/fixtures/<store>-store/server.mjs. */
  store: 'independent' | 'express'
  /** The store's BUG switch. */
  bug: string
  /** The store's VARIANT, where the bug needs one (the express store's). */
  variant?: string
  /** The verifier's layers enough to catch it (all of a default run when left out). */
  only?: readonly string[]
  /** `kit` where only the kit's profile promises it. */
  profile?: 'kit'
}
