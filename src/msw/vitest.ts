// @plant-store/msw/vitest: a consumer contract from a vitest run in browser mode, where the page can
// neither read PLANT_STORE_CONTRACT nor write a file. With the variable set, the plugin gives the page
// the consumer's name and a setup file that hands each contract the handlers record to a browser
// command, which writes it here, in Node, as a test run in Node writes its own.
import { fileURLToPath } from 'node:url'
import { packageName, parseContract, writeContractFile } from '@plant-store/core/contract'

export interface ContractPluginOptions {
  /** Where the contract goes. Default: PLANT_STORE_CONTRACT; without either, the plugin does nothing. */
  file?: string
  /** The consumer's name. Default: the name in the package.json nearest the working directory. */
  consumer?: string
}

interface TestConfig {
  setupFiles?: string | string[]
  provide?: Record<string, unknown>
  browser?: { commands?: Record<string, unknown> }
}

/** Add to the `plugins` of the vitest config that runs your tests in a browser. */
export function plantStoreContract(options: ContractPluginOptions = {}) {
  return {
    name: 'plant-store-contract',
    config(config: { test?: TestConfig }): void {
      const file = options.file ?? process.env.PLANT_STORE_CONTRACT
      if (!file) return
      const test: TestConfig = config.test ?? {}
      config.test = test
      const setup = fileURLToPath(new URL('./vitest-setup.js', import.meta.url))
      // Before the app's own setup files, so that the page's sink is there when they make the handlers.
      test.setupFiles = [setup, ...[test.setupFiles ?? []].flat()]
      test.provide = {
        ...test.provide,
        plantStoreContractConsumer: options.consumer ?? packageName() ?? 'unnamed consumer',
      }
      test.browser = {
        ...test.browser,
        commands: {
          ...test.browser?.commands,
          plantStoreContract: (_context: unknown, text: string) =>
            writeContractFile(file, parseContract(text)),
        },
      }
    },
  }
}
