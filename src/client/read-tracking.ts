// What the app reads of each answer, told to the plant store's handlers while they record a consumer
// contract (PLANT_STORE_CONTRACT in the app's test run): they leave a recorder on globalThis, and the
// client then hands the app answers that report each property read. With no recorder there, as in any
// app's page, the answers are the parsed JSON itself and nothing else is done.
import type { Middleware } from 'openapi-fetch'

/** The recorder's hook, as @plant-store/core's ContractRecorder offers it (the client depends on none of the kit). */
interface ContractHook {
  expect(method: string, url: string): unknown
  settle(ticket: unknown): void
  read(method: string, path: string, status: number, property: readonly string[]): void
}

const hookKey = Symbol.for('plant-store.consumer-contract')
const hook = () => (globalThis as Record<symbol, ContractHook | undefined>)[hookKey]

/** Tells the recorder which requests are the client's, so that their answers count by what is read. */
export function announceRequests(): Middleware {
  const tickets = new Map<string, { hook: ContractHook; ticket: unknown }>()
  const settle = ({ id }: { id: string }) => {
    const held = tickets.get(id)
    tickets.delete(id)
    held?.hook.settle(held.ticket)
  }
  return {
    onRequest({ request, id }) {
      const recorder = hook()
      if (recorder) tickets.set(id, { hook: recorder, ticket: recorder.expect(request.method, request.url) })
      return undefined
    },
    onResponse(options) {
      settle(options)
      return undefined
    },
    onError(options) {
      settle(options)
      return undefined
    },
  }
}

interface Result {
  data?: unknown
  error?: unknown
  response: Response
}

type Call = (path: string, init?: unknown) => Promise<Result>

/**
 * The client's calls (`GET`, …, and `request`), each answering, while a recorder is there, a result
 * whose data and error report every property the app reads. Without one, a call is openapi-fetch's own.
 */
export function trackReads(client: object): void {
  const calls = client as Record<string, Call>
  for (const method of ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']) {
    const call = calls[method]
    if (!call) continue
    calls[method] = (path, init) =>
      hook() ? call(path, init).then((result) => tracked(method, path, result)) : call(path, init)
  }
  const request = (
    client as Record<string, (method: string, path: string, init?: unknown) => Promise<Result>>
  ).request
  if (request)
    Object.assign(client, {
      request: (method: string, path: string, init?: unknown) =>
        hook()
          ? request(method, path, init).then((result) => tracked(method.toUpperCase(), path, result))
          : request(method, path, init),
    })
}

function tracked<R extends Result>(method: string, path: string, result: R): R {
  const recorder = hook()
  if (!recorder) return result
  const report = (property: readonly string[]) =>
    recorder.read(method, path, result.response.status, property)
  const out = { ...result }
  if ('data' in result) out.data = watch(result.data, report, [], new WeakMap())
  if ('error' in result) out.error = watch(result.error, report, [], new WeakMap())
  return out
}

const index = /^(0|[1-9]\d*)$/

function watch(
  value: unknown,
  report: (property: readonly string[]) => void,
  path: readonly string[],
  seen: WeakMap<object, unknown>,
): unknown {
  if (typeof value !== 'object' || value === null) return value
  const known = seen.get(value)
  if (known) return known
  const list = Array.isArray(value)
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      const item = Reflect.get(target, key, receiver)
      // A list's own methods and length are no property of the answer; an item of it is read as `[]`.
      if (typeof key !== 'string' || (list && !index.test(key))) return item
      const property = [...path, list ? '[]' : key]
      report(property)
      return watch(item, report, property, seen)
    },
  })
  seen.set(value, proxy)
  return proxy
}
