// The checks the verifier ships, in the order reports list them: the one list their names come from
// (the options, the reports, the pass counts, the proxy's header), and the selection a run makes of
// them and of a team's own checks.
import type { Check } from './check.js'
import { concurrentConsistency } from './concurrent-consistency.js'
import { consumerReads } from './consumer-reads.js'
import { contentTypeConformance } from './content-type-conformance.js'
import { createReadBack } from './create-read-back.js'
import { errorCodeConformance } from './error-code-conformance.js'
import { exampleConformance } from './example-conformance.js'
import { kitProfileConformance } from './kit-profile-conformance.js'
import { linkConformance } from './link-conformance.js'
import { positiveDataAcceptance } from './positive-data-acceptance.js'
import { principalIsolation } from './principal-isolation.js'
import { recordingConformance } from './recording-conformance.js'
import { responseHeadersConformance } from './response-headers-conformance.js'
import { responseSchemaConformance } from './response-schema-conformance.js'
import { statusCodeConformance } from './status-code-conformance.js'
import { storeConformance } from './store-conformance.js'
import { webhookConformance } from './webhook-conformance.js'
import { wwwAuthenticateOn401 } from './www-authenticate-on-401.js'

export const BUILT_IN_CHECKS: readonly Check[] = [
  statusCodeConformance,
  positiveDataAcceptance,
  contentTypeConformance,
  responseSchemaConformance,
  errorCodeConformance,
  wwwAuthenticateOn401,
  responseHeadersConformance,
  linkConformance,
  storeConformance,
  createReadBack,
  principalIsolation,
  concurrentConsistency,
  exampleConformance,
  kitProfileConformance,
  webhookConformance,
  consumerReads,
  recordingConformance,
]

/** The built-in checks' names, in the registry's order. */
export const CHECK_NAMES: readonly string[] = BUILT_IN_CHECKS.map((c) => c.name)

/** Each built-in check's promise, by its name. */
export const CHECKS: Readonly<Record<string, string>> = Object.fromEntries(
  BUILT_IN_CHECKS.map((c) => [c.name, c.description]),
)

/**
 * The checks a run keeps of `available`, from --checks (only these) and --exclude-checks (not these);
 * throws on a name no check has.
 */
export function selectChecks(
  available: readonly Check[],
  only: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): Check[] {
  const names = new Set(available.map((c) => c.name))
  for (const name of [...(only ?? []), ...(exclude ?? [])])
    if (!names.has(name)) throw new Error(`unknown check ${name} (the checks: ${[...names].join(', ')})`)
  const kept = only?.length ? new Set(only) : names
  for (const name of exclude ?? []) kept.delete(name)
  return available.filter((c) => kept.has(c.name))
}
