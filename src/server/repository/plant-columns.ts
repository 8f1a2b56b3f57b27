// The plants table's plant columns: one per property of the document's StoredPlant (core's plantFields),
// named as the property, for the SQL of both stores and the mapping between a plant and a row. A
// property the document adds needs its column added by a migration, which on SQLite makes the answer
// column (answerJsonSql) again too, and nothing here.
import { type PlantField, plantAnswerOrder, plantFields, type StoredPlant } from '@plant-store/core'

/** Every field's column, quoted, the id first: what a select reads and an insert writes. */
export const plantColumns = plantFields.map((field) => `"${field.name}"`).join(', ')

/** The fields a replace sets: all but the id, which names the row. */
// Stryker disable next-line MethodExpression: equivalent: with the id among them, a replace also sets the id to the one its WHERE names.
export const replacedFields: readonly PlantField[] = plantFields.filter((field) => !field.int64)

/** `first` and the placeholders after it, one per field: `?` for SQLite, `$n` for PostgreSQL. */
export const placeholders = (fields: readonly PlantField[], mark: (i: number) => string, first = 0) =>
  // Stryker disable next-line ArithmeticOperator: equivalent: SQLite's mark is `?` whatever the number; PostgreSQL's `$n`, which it changes, is not run here (src/server/test/postgres-instances.test.ts).
  fields.map((_, i) => mark(first + i)).join(', ')

/** `"name" = ?, "tag" = ?`: the SET list of a replace. */
export const setList = (mark: (i: number) => string, first = 0) =>
  // Stryker disable next-line ArithmeticOperator: equivalent: SQLite's mark is `?` whatever the number; PostgreSQL's `$n`, which it changes, is not run here (src/server/test/postgres-instances.test.ts).
  replacedFields.map((field, i) => `"${field.name}" = ${mark(first + i)}`).join(', ')

/**
 * A plant's values in `fields`' order, each as `write` puts it in a column. An absent field reaches
 * `write` as undefined, which both drivers bind as NULL; the document's only required int64 is the id.
 */
export function columnValues(
  plant: StoredPlant,
  fields: readonly PlantField[],
  write: (value: string | number | bigint | undefined, field: PlantField) => unknown,
): unknown[] {
  const from = plant as Record<string, string | number | bigint | undefined>
  return fields.map((field) => write(from[field.name], field))
}

/** The plant a row of `plantColumns` holds, each column as `read` takes it; a null column is absent. */
export function plantOfRow(row: readonly unknown[], read: (value: unknown, field: PlantField) => unknown) {
  const plant: Record<string, unknown> = {}
  plantFields.forEach((field, i) => {
    const value = row[i]
    if (value != null) plant[field.name] = read(value, field)
  })
  return plant as StoredPlant
}

type AnswerField = { name: string; required: boolean }
const answerFields: readonly AnswerField[] = plantAnswerOrder.map((name) => {
  const field = plantFields.find((known) => known.name === name) as PlantField
  return { name, required: field.required }
})

/**
 * SQL for a row's plant as an answer's JSON text, the expression of SQLite's stored answer column
 * (migrations.ts), written by SQLite's json_object: the fields in an answer's order
 * (plantAnswerOrder), integers in all their digits, a null column left out; byte for byte what
 * Fastify's serializer writes for the same plant (src/server/test/json-page.test.ts). One
 * json_object per combination of absent optional fields, as json_object would write a null.
 */
export function answerJsonSql(
  fields: readonly AnswerField[] = answerFields,
  present: AnswerField[] = [],
): string {
  const [field, ...rest] = fields
  if (!field) return `json_object(${present.map(({ name }) => `'${name}', "${name}"`).join(', ')})`
  const withIt = answerJsonSql(rest, [...present, field])
  return field.required
    ? withIt
    : `CASE WHEN "${field.name}" IS NULL THEN ${answerJsonSql(rest, present)} ELSE ${withIt} END`
}
