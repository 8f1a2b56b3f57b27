// An object schema of the document with its allOf merged in, as the /docs page, the verifier's cases
// and the broker read a schema's properties.
/** A JSON Schema of the document, as plain data. */
type JsonSchema = Record<string, unknown>

export interface FlatSchema {
  type?: string
  format?: string
  properties: Record<string, JsonSchema>
  required: string[]
  schema: JsonSchema
}

/** An object schema with its allOf merged in: every property and every required name. */
export function flatten(schema: JsonSchema): FlatSchema {
  const flat: FlatSchema = { properties: {}, required: [], schema }
  const visit = (s: JsonSchema) => {
    for (const part of (s.allOf as JsonSchema[] | undefined) ?? []) visit(part)
    const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type
    if (typeof type === 'string') flat.type = type
    if (typeof s.format === 'string') flat.format = s.format
    Object.assign(flat.properties, (s.properties as Record<string, JsonSchema> | undefined) ?? {})
    for (const name of (s.required as string[] | undefined) ?? [])
      if (!flat.required.includes(name)) flat.required.push(name)
  }
  visit(schema)
  if (!flat.type && Object.keys(flat.properties).length) flat.type = 'object'
  return flat
}
