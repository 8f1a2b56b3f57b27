// The kit profile's promises (`--profile kit`): its text under `kit.`, and what is marked
// `x-kit-profile` (the health operations, their `Status`, the rate-limit, `Allow` and
// `Accept-Encoding` headers); how a run exercises each, or why none can.
import { exampleConformance } from '../checks/example-conformance.js'
import { kitProfileConformance } from '../checks/kit-profile-conformance.js'
import { responseHeadersConformance } from '../checks/response-headers-conformance.js'
import { responseSchemaConformance } from '../checks/response-schema-conformance.js'
import { statusCodeConformance } from '../checks/status-code-conformance.js'
import {
  ABOUT_THE_DOCUMENT,
  any,
  CONFIGURATION,
  FAULTS,
  judgedBy,
  KIT_TESTS,
  kind,
  on,
  type PromiseEntry,
  STALLED,
  status,
} from './exercise.js'

/** The registry's entries for the kit profile's own promises, after the interface's. */
export const KIT_PROFILE: readonly PromiseEntry[] = [
  { promise: /^kit\.what-the-kit\..+/, untestable: ABOUT_THE_DOCUMENT },
  {
    promise: /^kit\.(headers\..+|rate-limits\.(every-answer-counted-against-a|the-health-probes-and-the))$/,
    exercisedBy: judgedBy(kitProfileConformance.name),
    checks: [kitProfileConformance.name, responseHeadersConformance.name],
  },
  {
    promise: /^(kit\.methods\..+|header\.Allow)$/,
    exercisedBy: kind('other method', 'derived: other-method'),
    checks: [statusCodeConformance.name, responseHeadersConformance.name, exampleConformance.name],
  },
  {
    promise: 'kit.limits-exactly.a-request-body-may-be',
    exercisedBy: kind('derived: oversized-body', 'derived: long-path-segment', 'derived: oversized-headers'),
    checks: [statusCodeConformance.name, exampleConformance.name],
  },
  {
    promise: 'kit.limits-exactly.a-json-request-body-whose',
    exercisedBy: kind('example: nestedTooDeep'),
    checks: [statusCodeConformance.name, exampleConformance.name],
  },
  {
    promise: 'kit.limits-exactly.a-client-must-send-its',
    exercisedBy: kind('derived: stalled'),
    unlessSaid: STALLED,
  },
  {
    promise: /^(kit\.refusals-before-any\..+|header\.Accept-Encoding)$/,
    exercisedBy: kind('refused before any operation'),
    checks: [
      statusCodeConformance.name,
      responseSchemaConformance.name,
      kitProfileConformance.name,
      exampleConformance.name,
    ],
  },
  {
    promise: 'kit.limits-exactly.an-idle-keep-alive-connection',
    unlessSaid: KIT_TESTS,
  },
  {
    promise: /^kit\.(limits-exactly\.whoever-runs-the-server-may|configuration\..+)$/,
    untestable: CONFIGURATION,
  },
  {
    promise: 'kit.rate-limits.each-principal-may-make-a',
    exercisedBy: any(status(429), kind('derived: over-rate-limit')),
    checks: [statusCodeConformance.name, kitProfileConformance.name],
    unlessSaid: FAULTS,
  },
  {
    promise: 'kit.rate-limits.the-limits-are-counted-by',
    untestable:
      'a run reaches one address, whichever instance answers it: how many instances count is not to be seen from it',
  },
  {
    promise: /^kit\.overload-and-storage\..+/,
    exercisedBy: any(status(503, 507), kind('derived: fault', 'derived: store-down')),
    checks: [statusCodeConformance.name, kitProfileConformance.name],
    unlessSaid: FAULTS,
  },
  {
    promise: /^(kit\.health\..+|getHealth\..+|getReadiness\..+|Status\..+)$/,
    exercisedBy: on('getHealth', 'getReadiness'),
    checks: [statusCodeConformance.name, responseSchemaConformance.name],
  },
  {
    promise: /^header\.(RateLimit-Policy|RateLimit)$/,
    exercisedBy: judgedBy(kitProfileConformance.name),
    checks: [kitProfileConformance.name],
  },
]
