// JSON as text, built node by node, so that a generated body can hold what JSON allows and
// JSON.stringify never writes: integers as `1e18`, `1.0` or `-0`, duplicate keys, `__proto__` keys.
// `value()` is what a correct reader makes of the text, ids as bigint so no digit is lost.

export type IntegerForm = 'plain' | 'exponent' | 'fraction' | 'negative zero'

export type JsonNode =
  | { kind: 'integer'; value: bigint; form: IntegerForm }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'object'; entries: [string, JsonNode][] }
  /** Text as it is, valid JSON or not. */
  | { kind: 'raw'; text: string }

export const integer = (value: bigint, form: IntegerForm = 'plain'): JsonNode => ({
  kind: 'integer',
  value,
  form,
})
export const string = (value: string): JsonNode => ({ kind: 'string', value })

export function render(node: JsonNode): string {
  switch (node.kind) {
    case 'integer':
      return integerText(node.value, node.form)
    case 'number':
      return JSON.stringify(node.value)
    case 'string':
      return stringText(node.value)
    case 'boolean':
      return String(node.value)
    case 'null':
      return 'null'
    case 'array':
      return `[${node.items.map(render).join(',')}]`
    case 'object':
      return `{${node.entries.map(([key, value]) => `${stringText(key)}:${render(value)}`).join(',')}}`
    case 'raw':
      return node.text
  }
}

/** What the text means: integers as bigint, the last of duplicate keys winning, as JSON.parse does. */
export function value(node: JsonNode): unknown {
  switch (node.kind) {
    case 'integer':
      return node.value
    case 'number':
    case 'string':
    case 'boolean':
      return node.value
    case 'null':
      return null
    case 'array':
      return node.items.map(value)
    case 'object': {
      const out: Record<string, unknown> = Object.create(null)
      for (const [key, item] of node.entries) out[key] = value(item)
      return out
    }
    case 'raw':
      return undefined
  }
}

/** The form's text, or plain digits when the value cannot be written in that form. */
export function integerText(value: bigint, form: IntegerForm): string {
  if (form === 'fraction') return `${value}.0`
  if (form === 'negative zero' && value === 0n) return '-0'
  if (form === 'exponent' && value !== 0n) {
    let mantissa = value
    let exponent = 0
    while (mantissa % 10n === 0n) {
      mantissa /= 10n
      exponent++
    }
    if (exponent > 0) return `${mantissa}e${exponent}`
  }
  return String(value)
}

// JSON.stringify escapes lone surrogates as \udXXX, which is what a client sending them writes.
const stringText = (text: string): string => JSON.stringify(text)
