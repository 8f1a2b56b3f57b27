// The plants the verifier's state holds, as the document's examples assume them (`x-given-plants`):
// their ids, and the values they hold in a property; and the one plant the coverage phase adds.
import type { OperationEntry } from '../document.js'
import { COMPOSED } from './filter-values.js'

/**
 * The plant the coverage phase keeps beside the given ones: its tag has another Unicode form, so that
 * a filter can be asked for the same text in that form (no given plant's tag has one).
 */
export const COVERAGE_PLANT = { name: 'Coffee', tag: COMPOSED } as const

/** The ids of the plants the document's examples assume (`x-given-plants`), in ascending order. */
export function givenIds(operations: OperationEntry[]): bigint[] {
  const found = new Set<bigint>()
  const seen = new WeakSet<object>()
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return
    seen.add(node)
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    for (const [key, item] of Object.entries(node)) {
      if (key === 'x-given-plants' && Array.isArray(item)) {
        for (const plant of item as { id?: unknown }[])
          if (typeof plant?.id === 'number' || typeof plant?.id === 'bigint') found.add(BigInt(plant.id))
      } else visit(item)
    }
  }
  for (const entry of operations) visit(entry.operation)
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The values the given plants of an operation's examples hold in a property, in order of first use. */
export function givenValues(entry: OperationEntry, property: string): string[] {
  const values = new Set<string>()
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return
    if (Array.isArray(node)) return node.forEach(visit)
    for (const [key, item] of Object.entries(node)) {
      if (key === 'x-given-plants' && Array.isArray(item)) {
        for (const plant of item as Record<string, unknown>[])
          if (typeof plant?.[property] === 'string') values.add(plant[property] as string)
      } else visit(item)
    }
  }
  visit(entry.operation)
  return [...values]
}

/** The values the state's plants hold in a property: the given plants', then the coverage plant's. */
export function heldValues(entry: OperationEntry, property: string): string[] {
  const own = (COVERAGE_PLANT as Record<string, unknown>)[property]
  const values = givenValues(entry, property)
  return typeof own === 'string' && !values.includes(own) ? [...values, own] : values
}
