// JSON as text, built node by node, so that a generated body can hold what JSON allows and
// JSON.stringify never writes: integers as `1e18`, `1.0`, `-0` or `0.10e+1`, duplicate keys, `__proto__`
// keys, strings with every character past ASCII escaped.
// `value()` is what a correct reader makes of the text, ids as bigint so no digit is lost.

/**
 * How an integer is written. `scaled`: all its digits after `0.`, a trailing zero, and an exponent with
 * its sign (`0.10e+1` is 1); `split`: a fraction of its last four digits and the exponent that moves
 * them back (`1234.5678e4`), so that no run of digits is longer than its length less four.
 */
/** Which characters of a string are written as escapes: those past ASCII, or every one. */
export type Escaped = 'past ASCII' | 'all'

export type IntegerForm = 'plain' | 'exponent' | 'fraction' | 'negative zero' | 'scaled' | 'split'

export type JsonNode =
  | { kind: 'integer'; value: bigint; form: IntegerForm }
  | { kind: 'number'; value: number }
  /** `escaped`: those characters written as `\uXXXX` (one past U+FFFF as its surrogate pair's two). */
  | { kind: 'string'; value: string; escaped?: Escaped }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'object'; entries: [string, JsonNode][]; escapedKeys?: Escaped }
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
      return stringText(node.value, node.escaped)
    case 'boolean':
      return String(node.value)
    case 'null':
      return 'null'
    case 'array':
      return `[${node.items.map(render).join(',')}]`
    case 'object':
      return `{${node.entries.map(([key, value]) => `${stringText(key, node.escapedKeys)}:${render(value)}`).join(',')}}`
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
  const sign = value < 0n ? '-' : ''
  const digits = String(value < 0n ? -value : value)
  if (form === 'scaled') return `${sign}0.${digits}0e+${digits.length}`
  if (form === 'split' && digits.length > 4) return `${sign}${digits.slice(0, -4)}.${digits.slice(-4)}e4`
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

// JSON.stringify escapes lone surrogates as \udXXX, which is what a client sending them writes; the
// escapes it writes stay as they are, every other character in question is written as one.
const stringText = (text: string, escaped?: Escaped): string => {
  const json = JSON.stringify(text)
  if (escaped === undefined) return json
  const inner = json
    .slice(1, -1)
    .replace(escaped === 'all' ? /\\u[0-9a-f]{4}|\\.|[^\\]/g : /[\u0080-\uffff]/g, (c) =>
      c.length === 1 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
    )
  return `"${inner}"`
}
