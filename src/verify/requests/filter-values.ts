// Filter values that differ from a stored value the way hand-written filters go wrong: another letter
// case, surrounding spaces, a prefix, another Unicode form of the same text. The document's filters
// keep exactly the plants whose value is the one asked for, so none of these may select a plant that
// holds the stored value; the coverage phase and the sequences both ask for them.

export const NEAR_MISSES = ['case', 'spaces', 'prefix', 'unicode'] as const
export type NearMiss = (typeof NEAR_MISSES)[number]

function changed(value: string, form: NearMiss): string | undefined {
  switch (form) {
    case 'case': {
      const upper = value.toUpperCase()
      return upper !== value ? upper : value.toLowerCase()
    }
    case 'spaces':
      return ` ${value} `
    case 'prefix':
      return value === '' ? undefined : [...value].slice(0, -1).join('')
    case 'unicode': {
      // NFC's `é` is one character, NFD's `e` and a combining accent: the same text, another string.
      const decomposed = value.normalize('NFD')
      return decomposed !== value ? decomposed : value.normalize('NFC')
    }
  }
}

/**
 * `value` changed as `form` says, or undefined where that changes nothing (no letter has a case, no
 * character another Unicode form) or makes a value longer than `maxLength` characters.
 */
export function nearMiss(
  value: string,
  form: NearMiss,
  maxLength = Number.POSITIVE_INFINITY,
): string | undefined {
  const out = changed(value, form)
  return out === undefined || out === value || [...out].length > maxLength ? undefined : out
}

/** A stored value with another Unicode form, for a store's plants to hold: `é` as one character. */
export const COMPOSED = 'caf\u00e9'
