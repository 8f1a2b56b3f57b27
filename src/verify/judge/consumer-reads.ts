// What a consumer reads of an answer, by its recorded contract: the contract's response for a status,
// and what an answer's body lacks of it. The contract's response schema is the document's, narrowed to
// what the consumer read, as it was when the consumer recorded it.
import type { ContractOperation, ContractResponse, JsonSchema } from '@plant-store/core'

/** The contract's response for a status: its own, its range's (`4XX`) or `default`, as the contract keys it. */
export function handledResponse(operation: ContractOperation, status: number): ContractResponse | undefined {
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in operation.responses)
  return key === undefined ? undefined : operation.responses[key]
}

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))
        ? 'integer'
        : typeof value === 'number'
          ? 'number'
          : typeof value

/** What `consumer` reads that the body of an answer of `status` lacks, or holds as another type. */
export function consumerReadProblems(
  consumer: string,
  operation: ContractOperation,
  status: number,
  body: unknown,
): string[] {
  const schema = Object.values(handledResponse(operation, status)?.content ?? {})[0]?.schema
  if (!schema) return []
  const problems: string[] = []
  const visit = (node: JsonSchema, value: unknown, where: string) => {
    const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type]
    const actual = typeOf(value)
    if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
      problems.push(
        `${where || 'the body'} is ${actual === 'object' ? 'an object' : `a ${actual}`}, and ${consumer} reads ${types.join(' or ')} there`,
      )
      return
    }
    if (Array.isArray(value) && node.items)
      for (const [i, item] of value.entries()) visit(node.items as JsonSchema, item, `${where}[${i}]`)
    if (actual !== 'object') return
    const required = new Set((node.required as string[] | undefined) ?? [])
    for (const [name, inner] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
      const record = value as Record<string, unknown>
      const path = where ? `${where}.${name}` : name
      if (Object.hasOwn(record, name)) visit(inner, record[name], path)
      else if (required.has(name)) problems.push(`the answer lacks ${path}, which ${consumer} reads`)
    }
  }
  visit(schema, body, '')
  return problems
}
