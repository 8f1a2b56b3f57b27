// The command's configuration file: `--config FILE`, or plant-store-verify.config.mjs, .js or .ts in
// the working directory; its default export, defineConfig({ checks, hooks }), is what verify() takes.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { defineConfig, type VerifyConfig } from './config.js'
import { VerifyUsageError } from './errors.js'

export const CONFIG_FILES = [
  'plant-store-verify.config.mjs',
  'plant-store-verify.config.js',
  'plant-store-verify.config.ts',
]

/** The configuration file to load: the one named, else the one in `cwd`; undefined when there is none. */
export function configFile(named: string | undefined, cwd: string): string | undefined {
  if (named !== undefined) {
    const file = resolve(cwd, named)
    if (!existsSync(file)) throw new VerifyUsageError(`no configuration file ${named} (--config)`)
    return file
  }
  const found = CONFIG_FILES.filter((name) => existsSync(resolve(cwd, name)))
  if (found.length > 1)
    throw new VerifyUsageError(
      `more than one configuration file here (${found.join(', ')}): keep one, or name it with --config`,
    )
  return found[0] === undefined ? undefined : resolve(cwd, found[0])
}

/** Node strips a .ts file's types itself from 22.18 (and 23.6) on; before, only with a flag. */
const stripsTypes = () => Boolean((process.features as { typescript?: unknown }).typescript)

/** The configuration a file's default export gives, checked; a file that does not load is a usage error. */
export async function loadConfig(file: string): Promise<VerifyConfig> {
  if (file.endsWith('.ts') && !stripsTypes())
    throw new VerifyUsageError(
      `cannot load the configuration ${file}: this Node (${process.version}) does not strip TypeScript types; Node 22.18 or newer does, or write the configuration as .mjs`,
    )
  let module: { default?: unknown }
  try {
    module = (await import(pathToFileURL(file).href)) as { default?: unknown }
  } catch (error) {
    throw new VerifyUsageError(`cannot load the configuration ${file}: ${firstLine(error)}`)
  }
  if (module.default === undefined)
    throw new VerifyUsageError(
      `the configuration ${file} has no default export: export default defineConfig({ checks, hooks })`,
    )
  try {
    return defineConfig(module.default as VerifyConfig)
  } catch (error) {
    throw new VerifyUsageError(`the configuration ${file}: ${firstLine(error)}`)
  }
}

const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0]
