// `plant-store-mock`: the mock from an installed package, as `npm run mock` starts it in the kit's
// repository. The bin file calls main() with the command line; `npm run mock` calls it with its own.
import { parseArgs } from 'node:util'
import { portOption } from '@plant-store/core'
import { startMock } from './mock.js'

const usage = `Usage: plant-store-mock [--dynamic] [--host HOST] [--port PORT] [--spec FILE]

Serves the Plant Store API from its OpenAPI document with Prism, behind a front that judges every
request as the real server does: a valid request gets the document's example for its lowest 2xx
status, any other the server's own refusal (status, headers and Error body). A Prefer header
(code=404, example=NAME) picks any other documented answer. Any origin may call it (CORS).

  --dynamic      answer with data generated from the schemas instead of the examples
  --host HOST    the address to listen on (default 127.0.0.1)
  --port PORT    the port to listen on (default 4010, 0 for any free port)
  --spec FILE    another version of the document, YAML or JSON (default: the one this package ships)
  -h, --help     this text`

function parse(argv: string[]) {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        dynamic: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        spec: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    return { ...values, port: portOption(values.port) }
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`)
    process.exit(2)
  }
}

export async function main(argv: string[]): Promise<void> {
  const values = parse(argv)
  if (values.help) {
    console.log(usage)
    return
  }
  const mock = await startMock({
    spec: values.spec,
    dynamic: values.dynamic ?? false,
    host: values.host,
    port: values.port,
  }).catch((error: Error) => {
    console.error(error.message)
    process.exit(1)
  })
  console.log(`Mock is listening on ${mock.url} (Prism, behind a front that refuses what the server refuses)`)
  let stopping = false
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => {
      stopping = true
      void mock.close().then(() => process.exit(0))
    })
  const code = await mock.exited
  if (stopping) return
  console.error(`the mock stops: Prism ended (exit ${code})`)
  await mock.close()
  process.exit(code || 1)
}
