// JSON pointers (RFC 6901): how the document's links name the part of a create's body that is the key.

export const escapePointer = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1')
export const unescapePointer = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~')

/** The value at a JSON pointer (RFC 6901) of a value. */
export function atPointer(value: unknown, pointer: string): unknown {
  let node = value
  for (const token of pointer.split('/').slice(1).map(unescapePointer)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[token]
  }
  return node
}
