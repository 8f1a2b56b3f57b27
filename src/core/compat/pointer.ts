// JSON pointers (RFC 6901): built by the engine for each change, followed by the tests to edit fixtures.

export const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1')
export const unescapeToken = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~')

/** `at('/paths', '/plants', 'post')` is `/paths/~1plants/post`. */
export const at = (pointer: string, ...tokens: (string | number)[]) =>
  `${pointer}${tokens.map((t) => `/${escapeToken(String(t))}`).join('')}`

const tokensOf = (pointer: string) => (pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken))

type Container = Record<string, unknown> | unknown[]
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null

/** The value at `pointer`; throws when there is none, so a fixture edit never misses silently. */
export function get(root: unknown, pointer: string): unknown {
  let node = root
  for (const token of tokensOf(pointer)) {
    if (!isContainer(node) || !(token in node)) throw new Error(`nothing at ${pointer} (stopped at ${token})`)
    node = (node as Record<string, unknown>)[token]
  }
  return node
}

function parentOf(root: unknown, pointer: string): { parent: Container; key: string } {
  const tokens = tokensOf(pointer)
  const key = tokens.pop()
  const parent = get(root, tokens.map((t) => `/${escapeToken(t)}`).join(''))
  if (key === undefined || !isContainer(parent)) throw new Error(`no parent to ${pointer}`)
  return { parent, key }
}

/** Sets the value at `pointer`; its parent must exist. */
export function set(root: unknown, pointer: string, value: unknown): void {
  const { parent, key } = parentOf(root, pointer)
  ;(parent as Record<string, unknown>)[key] = value
}

/** Removes the value at `pointer`, which must exist (an array item is spliced out). */
export function remove(root: unknown, pointer: string): void {
  get(root, pointer)
  const { parent, key } = parentOf(root, pointer)
  if (Array.isArray(parent)) parent.splice(Number(key), 1)
  else delete parent[key]
}

/** Appends to the array at `pointer`. */
export function push(root: unknown, pointer: string, value: unknown): void {
  const list = get(root, pointer)
  if (!Array.isArray(list)) throw new Error(`${pointer} is not an array`)
  list.push(value)
}
