// A repository command's options, read by node:util's parseArgs, told as every command of the kit
// tells them: an option it does not know, or an argument it does not take, is one line, then the
// usage, and exit 2; --help (-h) prints the usage and exits 0.
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'

export function readOptions<const O extends ParseArgsOptionsConfig>(options: O, usage: string) {
  let values: ReturnType<typeof parseArgs<{ options: O }>>['values']
  try {
    ;({ values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } as O }))
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`)
    process.exit(2)
  }
  if ((values as { help?: boolean }).help) {
    console.log(usage)
    process.exit(0)
  }
  return values
}
