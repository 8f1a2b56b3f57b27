// `npm run compat` as the gate's tests run it: without the replay (unless asked), on a draft of the
// document written to a scratch folder, its reports in a folder of their own there.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot, runToExit } from '../../../scripts/lib/processes.js'

/**
 * Judges `draft` (the document as it stands when undefined) as `dir/NAME.yaml`, its reports in
 * `dir/reports-NAME`, with `args` after the command's own; `replay` leaves out `--no-replay`.
 */
export async function runCompat(
  dir: string,
  name: string,
  draft?: object,
  args: string[] = [],
  { replay = false } = {},
) {
  const reports = join(dir, `reports-${name}`)
  const spec = join(dir, `${name}.yaml`)
  // JSON is YAML: the draft needs no YAML writer.
  if (draft) writeFileSync(spec, JSON.stringify(draft, null, 2))
  const run = await runToExit({
    name: 'run-compat',
    command: process.execPath,
    args: [
      '--import',
      'tsx',
      'contracts/compat/run-compat.ts',
      ...(replay ? [] : ['--no-replay']),
      '--reports',
      reports,
      ...(draft ? ['--spec', spec] : []),
      ...args,
    ],
    cwd: repoRoot,
    env: { NO_COLOR: '1' },
    timeoutMs: 60_000,
  })
  return { ...run, reports }
}
