// What the validators compiled ahead of time (generated/request-validators.ts) call of Ajv's run time,
// written here so that they import no Ajv: the same functions as ajv/dist/runtime.

/** A string's length in Unicode code points, as Ajv counts maxLength and minLength (ajv/dist/runtime/ucs2length). */
export function ucs2length(text: string): number {
  const units = text.length
  let length = 0
  let pos = 0
  while (pos < units) {
    length++
    const unit = text.charCodeAt(pos++)
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && pos < units && (text.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++
  }
  return length
}
