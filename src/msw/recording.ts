// Whether the handlers record a consumer contract, and this test worker's (or page's) one recording
// when they do: on in Node when PLANT_STORE_CONTRACT names a file, and in a vitest browser-mode page when
// the plugin of @plant-store/msw/vitest has left its sink there. The recorder's code is a module of its
// own, loaded only then, so that a page that records nothing gets none of it. The typed client finds
// the recording through a hook on globalThis (it depends on nothing of the kit's), there from the
// moment the handlers are made, so that the first request is told apart as well as the others.
import type { ContractRecorder } from '@plant-store/core/contract'

/** What the client calls, when a recording is there (`@plant-store/client`'s read-tracking.ts). */
interface ContractHook {
  /** The client is about to send this request, and will report what the app reads of its answer. */
  expect(method: string, url: string): unknown
  /** The request `expect` announced is over, answered by the handlers or by anything else. */
  settle(ticket: unknown): void
  /** The app read `property` (`['[]', 'name']`: the name of each item of a list) of an answer. */
  read(method: string, path: string, status: number, property: readonly string[]): void
}

const HOOK = Symbol.for('plant-store.consumer-contract')

/** Where the plugin's setup file leaves, in a page, what takes the contract to Node (vitest-setup.ts). */
export const CONTRACT_SINK = Symbol.for('plant-store.consumer-contract-sink')

export interface ContractSink {
  /** The consumer's name, as the plugin read it in Node. */
  consumer: string
  /** Takes the contract's text (its file as it would be) to Node. */
  write(text: string): void
}

export interface Recording {
  recorder: Promise<ContractRecorder>
  /** Whether the client announced this request: its answer then counts by what the app reads of it. */
  claim(method: string, url: string): boolean
}

let shared: Recording | undefined

/** The recording when a contract is recorded, else undefined (and nothing loaded). */
export function contractRecording(consumer: string | undefined): Recording | undefined {
  const global = globalThis as { process?: { env?: Record<string, string | undefined> } } & Record<
    symbol,
    unknown
  >
  const sink = global[CONTRACT_SINK] as ContractSink | undefined
  const file = global.process?.env?.PLANT_STORE_CONTRACT
  if (!file && !sink) return undefined
  if (shared) return shared
  let loaded: ContractRecorder | undefined
  const recorder = import('@plant-store/core/contract').then((contract) => {
    loaded = new contract.ContractRecorder({
      consumer: consumer ?? sink?.consumer ?? contract.packageName() ?? 'unnamed consumer',
      onChange: (recorded, text) =>
        sink ? sink.write(text) : contract.writeContractFile(file ?? '', recorded),
    })
    return loaded
  })
  const pending = new Map<string, Set<object>>()
  const hook: ContractHook = {
    expect(method, url) {
      const key = `${method.toUpperCase()} ${url}`
      const ticket = { key }
      pending.set(key, (pending.get(key) ?? new Set()).add(ticket))
      return ticket
    },
    settle(ticket) {
      const key = (ticket as { key?: string }).key ?? ''
      pending.get(key)?.delete(ticket as object)
      if (pending.get(key)?.size === 0) pending.delete(key)
    },
    read(method, path, status, property) {
      if (loaded) loaded.read(method, path, status, property)
      else void recorder.then((ready) => ready.read(method, path, status, property))
    },
  }
  global[HOOK] = hook
  shared = {
    recorder,
    claim(method, url) {
      const key = `${method.toUpperCase()} ${url}`
      const ticket = pending.get(key)?.values().next().value
      if (ticket === undefined) return false
      hook.settle(ticket)
      return true
    },
  }
  return shared
}
