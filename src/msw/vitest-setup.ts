// The page's side of @plant-store/msw/vitest, loaded first by the plugin: the sink where the handlers
// send each contract they record, handed to the plugin's command (Node writes the file), and a wait
// for the last of them before the test file ends. It imports nothing of the kit's but a symbol's name,
// so that the page loads nothing the app's own imports have not prepared.
import { afterAll, inject } from 'vitest'
import * as browser from 'vitest/browser'
import { CONTRACT_SINK, type ContractSink } from './recording.js'

declare module 'vitest' {
  interface ProvidedContext {
    plantStoreContractConsumer: string
  }
}

// The command is the plugin's own: vitest's types know the built-in ones alone.
const { commands } = browser as unknown as { commands: { plantStoreContract(text: string): Promise<void> } }
const pending = new Set<Promise<void>>()

const sink: ContractSink = {
  consumer: inject('plantStoreContractConsumer'),
  write(text) {
    const sent = commands.plantStoreContract(text)
    pending.add(sent)
    const done = () => pending.delete(sent)
    sent.then(done, done)
  },
}
;(globalThis as Record<symbol, unknown>)[CONTRACT_SINK] = sink

// A write that failed fails the file here, where vitest reports it.
afterAll(() => Promise.all(pending).then(() => undefined))
