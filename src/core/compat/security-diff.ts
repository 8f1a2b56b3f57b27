// Security requirements compared by what a client must hold: scheme by scheme (by what each scheme is,
// not by its name, which clients never see) with their scopes.
import { type Document, isSecured } from '../document.js'
import { isNode, nodeOf } from './schema-diff.js'

export type Requirement = Record<string, string[]>

export interface Alternative {
  /** Each scheme of the requirement by what it is (not by its name, which clients never see), with its scopes. */
  schemes: { shape: string; scopes: string[] }[]
}

export function alternatives(security: Requirement[], doc: Document): Alternative[] {
  // No requirement at all lets anyone in, as an empty one does.
  if (security.length === 0) return [{ schemes: [] }]
  const defined = nodeOf(doc.components?.securitySchemes)
  return security.map((requirement) => ({
    schemes: Object.entries(requirement).map(([name, scopes]) => ({
      shape: schemeShape(defined[name], name),
      scopes: scopes ?? [],
    })),
  }))
}

function schemeShape(scheme: unknown, name: string): string {
  if (!isNode(scheme)) return `undefined:${name}`
  const { type, in: where, name: key, openIdConnectUrl, flows } = scheme
  const kind = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : scheme.scheme
  return JSON.stringify({ type, scheme: kind, in: where, name: key, openIdConnectUrl, flows })
}

/** Whether a client holding what `have` asks for also holds what `need` asks for. */
export const satisfies = (have: Alternative, need: Alternative) =>
  need.schemes.every((n) =>
    have.schemes.some((h) => h.shape === n.shape && n.scopes.every((scope) => h.scopes.includes(scope))),
  )

export function describeSecurity(security: Requirement[]): string {
  if (!isSecured(security)) return 'no credentials'
  return security
    .map((r) =>
      Object.entries(r)
        .map(([name, scopes]) => (scopes?.length ? `${name} [${scopes.join(', ')}]` : name))
        .join(' + '),
    )
    .join(' or ')
}
