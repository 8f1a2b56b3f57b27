// `plant-store-proxy`: the validating proxy (proxy.ts) from an installed package, as `npm run proxy`
// starts it in the kit's repository. The bin file calls main() with the command line; `npm run proxy`
// calls it with its own.
import { relative } from 'node:path'
import { parseArgs } from 'node:util'
import { portOption } from '@plant-store/core'
import { BUILT_IN_CHECKS } from '../checks/registry.js'
import { teamChecks, type VerifyConfig } from '../run/config.js'
import { configFile, loadConfig } from '../run/config-file.js'
import { startProxy } from './proxy.js'

const usage = `Usage: plant-store-proxy [--upstream URL] [--host HOST] [--port PORT] [--spec FILE]
                         [--record FILE.har [--redact-header NAME]...] [--config FILE]

Forwards every request to a running plant store and every answer back, byte for byte, and reports
each answer that departs from the OpenAPI document: an X-Contract-Violations header on that answer
and a JSON line on standard output. It never changes or fails a request.

  --upstream URL         the server behind it (default http://127.0.0.1:3000)
  --host HOST            the address to listen on (default 127.0.0.1)
  --port PORT            the port to listen on (default 4011, 0 for any free port)
  --spec FILE            another version of the document to judge by (default: the one this
                         package ships)
  --record FILE.har      write every exchange to FILE.har (HAR 1.2) as it happens: bodies exactly as
                         they passed, each bearer token as a pseudonym (Bearer principal-1, …), and
                         the document's verdict on each in its _contract field
  --redact-header NAME   write this header's value as [redacted] (repeatable), e.g. Cookie
  --config FILE          your own checks judge each answer too: the checks of a module whose default
                         export is defineConfig({ checks }) (default: plant-store-verify.config.mjs,
                         .js or .ts in the working directory, when there is one). Its hooks are for
                         plant-store-verify's runs: the proxy forwards each request as it came
  -h, --help             this text`

function parse(argv: string[]) {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        upstream: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        spec: { type: 'string' },
        record: { type: 'string' },
        'redact-header': { type: 'string', multiple: true },
        config: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    const port = portOption(values.port)
    if (values['redact-header'] && values.record === undefined)
      throw new Error('--redact-header goes with --record FILE.har')
    return { ...values, port }
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
  const upstream = values.upstream ?? 'http://127.0.0.1:3000'
  const { spec } = values
  let config: VerifyConfig | undefined
  try {
    const file = configFile(values.config, process.cwd())
    if (file !== undefined) {
      config = await loadConfig(file)
      const names = teamChecks(config, BUILT_IN_CHECKS).map((c) => c.name)
      console.log(`Your checks, from ${relative(process.cwd(), file)}: ${names.join(', ') || 'none'}`)
    }
  } catch (error) {
    console.error(`plant-store-proxy: ${(error as Error).message}`)
    process.exit(2)
  }
  const proxy = await startProxy({
    ...(config === undefined ? {} : { config }),
    upstream,
    spec,
    host: values.host ?? '127.0.0.1',
    port: values.port ?? 4011,
    ...(values.record === undefined
      ? {}
      : { record: { file: values.record, redactHeaders: values['redact-header'] ?? [] } }),
  }).catch((error: Error) => {
    console.error(`the proxy cannot start: ${error.message}`)
    process.exit(1)
  })
  const judgedBy =
    spec === undefined ? 'the document this package ships' : relative(process.cwd(), spec) || spec
  console.log(`Proxy is listening on ${proxy.url}, in front of ${upstream}, judging answers by ${judgedBy}`)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      proxy.close().then(() => process.exit(0))
      // close() ends open connections itself; this only guards against a close that never returns.
      setTimeout(() => process.exit(1), 5_000).unref()
    })
  }
}
