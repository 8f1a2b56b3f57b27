// The options `npm run proxy -- …` takes on its command line: a recording of the traffic, and the
// headers whose values it leaves out.
import { parseArgs } from 'node:util'
import type { RecordOptions } from '@plant-store/verify/proxy'

const usage = `Usage: npm run proxy -- [--record FILE.har [--redact-header NAME]...]

  --record FILE.har      write every exchange to FILE.har (HAR 1.2) as it happens: bodies exactly as
                         they passed, each bearer token as a pseudonym (Bearer principal-1, …), and
                         the document's verdict on each in its _contract field
  --redact-header NAME   write this header's value as [redacted] (repeatable), e.g. Cookie`

/** The recording asked for, or undefined; a usage error ends the process with status 2. */
export function proxyArgs(argv: string[]): { record?: RecordOptions } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        record: { type: 'string' },
        'redact-header': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    })
    if (values.help) {
      console.log(usage)
      process.exit(0)
    }
    if (values['redact-header'] && values.record === undefined)
      throw new Error('--redact-header goes with --record FILE.har')
    if (values.record === undefined) return {}
    return { record: { file: values.record, redactHeaders: values['redact-header'] ?? [] } }
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`)
    process.exit(2)
  }
}
