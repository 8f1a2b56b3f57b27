// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.

/** StoredPlant's properties: the int64 id first, then the others in the document's order. */
export const plantFields = [
  { name: 'id', type: 'integer', int64: true, required: true },
  { name: 'name', type: 'string', int64: false, required: true },
  { name: 'tag', type: 'string', int64: false, required: false },
] as const

/** StoredPlant's property names as an answer's JSON lists them: the required ones first, each in the document's order. */
export const plantAnswerOrder = ['name', 'id', 'tag'] as const
