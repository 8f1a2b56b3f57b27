// The plant store as a model, for the stateful sequences (the verifier's stateful layer and the kit's
// stateful contract suite): one Map per principal of id -> plant, and what each kind of operation must answer and change. This is
// the one place that knows what the store's answers mean (404: the caller has no such plant; 409:
// the id is taken and nothing changed). Which operations exist, and how they relate, comes from the
// document's links (api.ts).
import { givenPlants } from '@plant-store/core'

/** A plant as the model keeps it: its fields, the key (id) as a bigint so that int64 ids stay exact. */
export type Plant = Record<string, unknown>

export interface PrincipalModel {
  /** The principal's plants, by the decimal text of their key. */
  plants: Map<string, Plant>
  /**
   * The request bodies of this principal's successful creates, in order: what a link's
   * `$request.body#/…` reads, so a linked command can follow a created plant even after its delete.
   */
  created: Plant[]
}

/** The store: one model per principal, index 0 and 1. */
export interface StoreModel {
  principals: PrincipalModel[]
}

/** The statuses the document gives these meanings to. */
export const NOT_FOUND = 404
export const TAKEN = 409

/** What one request must answer, and the change to the model once it has. */
export interface Expected {
  status: number
  /** The plant the answer body shows (its fields the response documents), or undefined for no such body. */
  plant?: Plant
  /** The rule that makes this the answer, for failure messages. */
  rule: string
  /** Applies the change; called only once the answer matched. */
  apply?: () => void
}

export const keyText = (key: bigint): string => key.toString()

/** Ascending order of keys, as bigints (a string or number sort would misplace negative and long ids). */
export const byKey =
  (keyField: string) =>
  (a: Plant, b: Plant): number => {
    const x = a[keyField] as bigint
    const y = b[keyField] as bigint
    return x < y ? -1 : x > y ? 1 : 0
  }

/**
 * The store a new principal starts with: empty on the real server; on the sandbox, the plants the
 * document's examples assume (x-given-plants), which it seeds into every new principal.
 */
export function initialModel(principals: number, seeded: boolean, document: unknown, keyField: string) {
  const seeds = seeded ? seedPlants(document, keyField) : []
  const model: StoreModel = { principals: [] }
  for (let i = 0; i < principals; i++) {
    model.principals.push({
      plants: new Map(seeds.map((plant) => [keyText(plant[keyField] as bigint), { ...plant }])),
      created: [],
    })
  }
  return model
}

export function seedPlants(document: unknown, keyField: string): Plant[] {
  return givenPlants(document).map((plant) => {
    const copy: Plant = { ...plant }
    copy[keyField] = BigInt((plant as unknown as Plant)[keyField] as number | bigint)
    return copy
  })
}

/**
 * The create operation (the one whose success has links): a new key is stored and answered with
 * `success`; a key the principal already uses is 409, and nothing changes.
 */
export function expectCreate(
  principal: PrincipalModel,
  keyField: string,
  body: Plant,
  success: number,
): Expected {
  const key = body[keyField] as bigint
  const text = keyText(key)
  if (principal.plants.has(text)) {
    return { status: TAKEN, rule: `the id ${text} is taken: ${TAKEN}, and nothing changes` }
  }
  return {
    status: success,
    plant: body,
    rule: `create of the new id ${text}: ${success} with the plant as sent`,
    apply: () => {
      principal.plants.set(text, { ...body })
      principal.created.push(body)
    },
  }
}

/**
 * An operation a create links to, on one plant, by HTTP method: 404 when the principal has no plant
 * with the key; otherwise GET answers the plant, PUT stores the body as the plant's fields (a field
 * left out is removed), PATCH merges the body into them, DELETE removes the plant.
 */
export function expectLinked(
  method: string,
  operationId: string,
  principal: PrincipalModel,
  keyField: string,
  key: bigint,
  body: Plant | undefined,
  success: number,
): Expected {
  const text = keyText(key)
  const current = principal.plants.get(text)
  if (!current) return { status: NOT_FOUND, rule: `the caller has no plant ${text}: ${NOT_FOUND}` }
  const withKey = (fields: Plant): Plant => ({ ...fields, [keyField]: key })
  switch (method) {
    case 'get':
      return {
        status: success,
        plant: current,
        rule: `read-your-writes: plant ${text} as the model holds it`,
      }
    case 'put': {
      const next = withKey(body ?? {})
      return {
        status: success,
        plant: next,
        rule: `replace of plant ${text}: ${success} with the plant as now stored`,
        apply: () => principal.plants.set(text, next),
      }
    }
    case 'patch': {
      const next = withKey({ ...current, ...(body ?? {}) })
      return {
        status: success,
        plant: next,
        rule: `update of plant ${text}: ${success} with the merged plant`,
        apply: () => principal.plants.set(text, next),
      }
    }
    case 'delete':
      return {
        status: success,
        rule: `delete of plant ${text}: ${success}`,
        apply: () => principal.plants.delete(text),
      }
    default:
      throw new Error(
        `the model has no meaning for ${operationId} (${method.toUpperCase()} on one plant): add it to the store model (sequences/store-model.ts)`,
      )
  }
}

/** A list's filter: the query parameter, named for the field it keeps plants by, and its value. */
export interface ListFilter {
  name: string
  value: string
}

/**
 * The list operation: every plant of the principal, in ascending order of key, across all pages; with
 * a filter, only those whose field holds exactly its value (the same string: case, spaces and Unicode
 * form count).
 */
export function expectList(principal: PrincipalModel, keyField: string, filter?: ListFilter): Plant[] {
  return [...principal.plants.values()]
    .filter((plant) => filter === undefined || plant[filter.name] === filter.value)
    .sort(byKey(keyField))
}

/**
 * Whose plant an unexpected answer shows, when the principal has no plant with its key: another
 * principal's of the sequence, or one the model knows nowhere. The isolation hint of failure messages.
 */
export function ownerHint(model: StoreModel, self: number, keyField: string, shown: Plant[]): string {
  for (const plant of shown) {
    const key = plant?.[keyField]
    if (typeof key !== 'bigint' || model.principals[self]?.plants.has(keyText(key))) continue
    const owner = model.principals.findIndex(
      (other, index) => index !== self && other.plants.has(keyText(key)),
    )
    return owner >= 0
      ? ` (plant ${keyText(key)} is p${owner}'s, not p${self}'s: isolation between principals is broken)`
      : ` (p${self} has no plant ${keyText(key)}, nor has any principal of the sequence)`
  }
  return ''
}
