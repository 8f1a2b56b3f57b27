#!/usr/bin/env node
// plant-store-verify: checks a running plant store, by URL, against the OpenAPI document. Exit 0 when
// every answer agrees with the document (and the coverage reaches --min-coverage), 1 when any
// departs (or it does not), 2 for a usage error or a server that cannot be reached.
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { parseArgs } from 'node:util'
import SwaggerParser from '@apidevtools/swagger-parser'
import { type ConsumerContract, parseContract, portOption, document as shipped } from '@plant-store/core'
import { BUILT_IN_CHECKS } from './checks/registry.js'
import { interfaceOf, loadDocument, type OperationEntry, PROFILES, type Profile } from './document.js'
import { loadPromises } from './promises/coverage.js'
import type { DocumentPromise } from './promises/document-promises.js'
import { runReplay } from './proxy/replay-cli.js'
import { publishTarget, publishVerification } from './publish.js'
import { ProgressLog, TerminalProgress } from './report/ci.js'
import { coverageOf } from './report/coverage.js'
import { meets } from './report/coverage-summary.js'
import { reportsAsked, writeReports } from './report/reports.js'
import { LAYERS, type Layer } from './report/results.js'
import { teamChecks, type VerifyConfig } from './run/config.js'
import { configFile, loadConfig } from './run/config-file.js'
import { TeamCodeError } from './run/errors.js'
import { DEFAULTS, VerifyUsageError, verify } from './run/verify.js'

const HELP = `Usage: plant-store-verify --base-url URL --token TOKEN_A --token TOKEN_B [options]

Checks a running plant store against its OpenAPI document: the example replay, generated requests,
stateful sequences from the document's links, the security cases and requests sent together, each
answer judged by the document alone. Use two principals of your server that no one else changes
during the run; the plants they already own are read first and left as they were, and the run
deletes what it creates.

  --base-url URL         the server under test (or VERIFY_BASE_URL), e.g. http://127.0.0.1:3000
  --token TOKEN          a bearer token; twice, for two different principals
                         (or VERIFY_TOKENS=TOKEN_A,TOKEN_B)
  --spec FILE            another version of the document (default: the one this package ships)
  --profile NAME         interface (default): what every plant store keeps; kit: the kit server's
                         profile too (its exact limits, 405, health probes, request-id, security,
                         cache and rate-limit headers), and its answers exactly as it writes them
  --only LAYERS          comma-separated: ${LAYERS.join(', ')} (default: all)
  --checks NAMES         only these checks, comma-separated (default: all, your own included)
  --exclude-checks NAMES leave these checks out
  --config FILE          your own checks and hooks: a module whose default export is
                         defineConfig({ checks, hooks }) (default: plant-store-verify.config.mjs,
                         .js or .ts in the working directory, when there is one)
  --requests N           generated requests (default ${DEFAULTS.requests}, or fewer, with fewer sequences,
                         to fit a quota the server declares; given, the run waits for it instead)
  --sequences N          stateful sequences (default ${DEFAULTS.sequences}, or fewer, as --requests)
  --seed S               the seed of the generated requests and sequences (printed with every run)
  --case NAME            replay one case: an example or security case by its name, as the report
                         shows it (operation · title), or a generated request by its number (the
                         failure prints the command)
  --path P, --replay-path R   replay one stateful failure (the failure prints the command)
  --read-only            only what changes nothing: reads and refused requests (a production check)
  --keep                 leave the plants the generated requests worked with
  --any-token            the server makes a principal of any token (a sandbox): a token no
                         principal holds is not tried
  --wait SECONDS         wait up to SECONDS for the server to answer at all (a server still
                         starting): any HTTP answer will do; without it, none is a usage error
  --headers-timeout SECONDS  the server's headers timeout (the kit's server: HEADERS_TIMEOUT_MS):
                         also send a request whose headers stop arriving, and judge its answer
                         (the document's 408) once that time is up
  --rate N               at most N requests a second (a quota the server declares in RateLimit, and
                         a 429's Retry-After, are always waited out, and the wait said)
  --webhook-listen PORT  also judge the newPlant events the server sends during the run: a receiver
                         listens on 127.0.0.1:PORT (0: any free port; its URL is printed). You
                         configure the server under test, before the run, to send both principals'
                         events to http://127.0.0.1:PORT/ (the kit's server: WEBHOOK_ENDPOINTS)
  --webhook-secret S     the whsec_… secret the server signs events with (or VERIFY_WEBHOOK_SECRET)
  --webhook-wait SECONDS the longest wait after the requests for events still to come (default 30)
  --webhook-hold SECONDS the first event's first attempt is held unanswered this long (default: the
                         document's delivery time-out + 1 s, 11; 0: none)
  --webhook-no-fail-attempts  answer every attempt 200: no 500, redirect or held attempt, no retry judged
  --junit FILE           write a JUnit XML report
  --report FILE          write a Markdown report
  --json FILE            write the whole result as JSON: rows, failures, warnings, notes, coverage
  --publish VERSION      send the --json report to a contract broker (@plant-store/broker) as the
                         verification of store version VERSION: BROKER_URL, BROKER_TOKEN (and
                         BROKER_APPLICATION, default plant-store); exit 2 when it is not taken
  --html FILE            write one self-contained HTML page (opens from disk, a CI artifact)
  --min-coverage PERCENT fail (exit 1) when the coverage is below PERCENT: the document's promises
                         judged (exercised by a request, which one of the promise's checks judged),
                         of those a request can show
  --print-document       print the document the run would judge by, as JSON, and exit: the
                         interface a store keeps (with --profile kit, the whole document)
  --replay FILE.har      instead of the checks: send the recording's requests in order (its
                         principals principal-1, principal-2… as the --token values, in order; none:
                         as recorded), judge each answer by the document and compare it with the
                         recorded one (status, body, whether a Link follows). Exit 1 on a departure
                         from the document or a difference from the recording. --junit, --report,
                         --json and --html write its reports as a run's
  --allow-differences    with --replay: report differences from the recording, fail only on departures
  --consumer FILE        instead of the layers: replay a consumer's requests, from the consumer
                         contract its tests recorded (@plant-store/msw, PLANT_STORE_CONTRACT): each
                         operation it calls, at the lowest and the highest its values reached and
                         --requests more drawn between (default ${DEFAULTS.consumerRequests}), the plants it
                         names created first; each answer judged by the document and by
                         what the consumer reads (every property it reads is there)
  --help                 this text (with your configuration's checks listed after the built-in ones)

Checks:
${checkLines(BUILT_IN_CHECKS)}

In GitHub Actions (GITHUB_ACTIONS=true) each distinct failure is also an error annotation and each
warning a warning annotation. When stderr is not a terminal, a plain progress line every 5 s.

Exit status: 0 every answer agreed with the document; 1 some did not, a layer could not go on, or
the coverage is below --min-coverage; 2 a usage error, a server that cannot be reached, or a
configuration that does not load or whose check or hook throws.`

function checkLines(checks: readonly { name: string; description: string }[]): string {
  return checks.map((check) => `  ${check.name.padEnd(30)} ${check.description}`).join('\n')
}

function usage(message: string): never {
  console.error(`plant-store-verify: ${message} (see --help)`)
  process.exit(2)
}

/**
 * `--seed -5` read as `--seed=-5`: parseArgs takes a value starting with a dash only after `=`, and a
 * seed, printed with every run, is as often negative as not.
 */
function negativeSeed(args: string[]): string[] {
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1]
    if (args[i] === '--seed' && next !== undefined && /^-\d+$/.test(next)) joined.push(`--seed=${args[++i]}`)
    else joined.push(args[i] as string)
  }
  return joined
}

let parsed: ReturnType<typeof parse>
function parse() {
  return parseArgs({
    args: negativeSeed(process.argv.slice(2)),
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string', multiple: true },
      spec: { type: 'string' },
      only: { type: 'string' },
      checks: { type: 'string' },
      'exclude-checks': { type: 'string' },
      config: { type: 'string' },
      requests: { type: 'string' },
      sequences: { type: 'string' },
      seed: { type: 'string' },
      case: { type: 'string' },
      path: { type: 'string' },
      'replay-path': { type: 'string' },
      'read-only': { type: 'boolean' },
      keep: { type: 'boolean' },
      'any-token': { type: 'boolean' },
      rate: { type: 'string' },
      'headers-timeout': { type: 'string' },
      wait: { type: 'string' },
      'webhook-listen': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'webhook-wait': { type: 'string' },
      'webhook-hold': { type: 'string' },
      'webhook-no-fail-attempts': { type: 'boolean' },
      profile: { type: 'string' },
      junit: { type: 'string' },
      report: { type: 'string' },
      json: { type: 'string' },
      publish: { type: 'string' },
      html: { type: 'string' },
      'min-coverage': { type: 'string' },
      help: { type: 'boolean' },
      replay: { type: 'string' },
      'allow-differences': { type: 'boolean' },
      'print-document': { type: 'boolean' },
      consumer: { type: 'string' },
    },
    allowPositionals: false,
  })
}
try {
  parsed = parse()
} catch (error) {
  // An option mistyped is told with the command's synopsis; --help has every option.
  console.error(
    `plant-store-verify: ${(error as Error).message}\n\n${HELP.split('\n')[0]} (--help lists them all)`,
  )
  process.exit(2)
}
const { values } = parsed

// The team's configuration, its checks checked against the built-in ones: for --help, a replay and a run alike.
let config: VerifyConfig | undefined
let configPath: string | undefined
try {
  configPath = configFile(values.config, process.cwd())
  if (configPath !== undefined) {
    config = await loadConfig(configPath)
    teamChecks(config, BUILT_IN_CHECKS)
  }
} catch (error) {
  if (!(error instanceof VerifyUsageError)) throw error
  if (values.help) console.log(HELP)
  usage(error.message)
}
if (values.help) {
  const own = teamChecks(config, BUILT_IN_CHECKS)
  console.log(
    own.length && configPath
      ? `${HELP}\n\nYour checks, from ${relative(process.cwd(), configPath) || configPath}:\n${checkLines(own)}`
      : HELP,
  )
  process.exit(0)
}
if (values['print-document']) {
  const chosen = values.profile === 'kit' ? 'kit' : 'interface'
  const raw = values.spec === undefined ? structuredClone(shipped) : await SwaggerParser.parse(values.spec)
  console.log(JSON.stringify(chosen === 'kit' ? raw : interfaceOf(raw), null, 2))
  process.exit(0)
}

const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
const positive = (name: string, text: string | undefined) => {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n <= 0) usage(`--${name} takes a positive whole number, not ${text}`)
  return n
}

const baseUrl = values['base-url'] ?? process.env.VERIFY_BASE_URL
if (!baseUrl) usage('no server to verify: give --base-url URL or VERIFY_BASE_URL')
const tokens = values.token?.length ? values.token : (list(process.env.VERIFY_TOKENS) ?? [])
// The reports it writes, whatever it runs: chosen from these options in one place (reportsAsked).
const reportFiles = { junit: values.junit, report: values.report, json: values.json, html: values.html }
const publishTo = values.publish === undefined ? undefined : publishTarget()
if (typeof publishTo === 'string') usage(publishTo)
if (values.replay !== undefined) {
  const replay = { file: values.replay, baseUrl, tokens, spec: values.spec, reports: reportFiles, config }
  process.exit(await runReplay({ ...replay, allowDifferences: values['allow-differences'] ?? false }))
}
if (tokens.length !== 2)
  usage(
    `two tokens of two principals are needed (--token A --token B or VERIFY_TOKENS=A,B); got ${tokens.length}`,
  )
const only = list(values.only)
for (const layer of only ?? [])
  if (!LAYERS.includes(layer as Layer)) usage(`unknown layer ${layer} (the layers: ${LAYERS.join(', ')})`)
const seed = values.seed === undefined ? undefined : Number(values.seed)
if (seed !== undefined && !Number.isSafeInteger(seed))
  usage(`--seed takes a whole number, not ${values.seed}`)

let consumer: ConsumerContract | undefined
if (values.consumer !== undefined) {
  if (only) usage('--consumer replays the consumer’s requests alone: it goes without --only')
  try {
    consumer = parseContract(readFileSync(values.consumer, 'utf8'), values.consumer)
  } catch (error) {
    usage((error as NodeJS.ErrnoException).code ? `cannot read ${values.consumer}` : (error as Error).message)
  }
}

const webhookSecret = values['webhook-secret'] ?? process.env.VERIFY_WEBHOOK_SECRET
const webhookPort = ((): number | undefined => {
  try {
    return portOption(values['webhook-listen'], '--webhook-listen')
  } catch (error) {
    return usage((error as Error).message)
  }
})()
if (webhookPort !== undefined) {
  if (!webhookSecret)
    usage(
      '--webhook-listen needs the secret the server signs with: --webhook-secret or VERIFY_WEBHOOK_SECRET',
    )
} else if (
  values['webhook-secret'] !== undefined ||
  values['webhook-wait'] !== undefined ||
  values['webhook-hold'] !== undefined ||
  values['webhook-no-fail-attempts']
)
  usage(
    '--webhook-secret, --webhook-wait, --webhook-hold and --webhook-no-fail-attempts go with --webhook-listen PORT',
  )
const webhookWait = positive('webhook-wait', values['webhook-wait'])
const webhookHold = values['webhook-hold'] === undefined ? undefined : Number(values['webhook-hold'])
if (webhookHold !== undefined && !(Number.isFinite(webhookHold) && webhookHold >= 0))
  usage(`--webhook-hold takes a number of seconds, 0 or more, not ${values['webhook-hold']}`)
const profile = values.profile
if (profile !== undefined && !PROFILES.includes(profile as Profile))
  usage(`--profile takes ${PROFILES.join(' or ')}, not ${profile}`)
const minCoverageText = values['min-coverage']?.replace(/%$/, '')
const minCoverage = minCoverageText === undefined ? undefined : Number(minCoverageText)
if (
  minCoverage !== undefined &&
  (minCoverageText === '' || !Number.isFinite(minCoverage) || minCoverage < 0 || minCoverage > 100)
)
  usage(`--min-coverage takes a percentage from 0 to 100, not ${values['min-coverage']}`)

const interactive = process.stderr.isTTY
// Not a terminal (a CI log): a plain line at most every 5 s, repeated while a wait goes on. On a
// terminal, one line rewritten in place at most every 200 ms, the latest always shown in the end.
const log = interactive
  ? new TerminalProgress((line) =>
      process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns || 80) - 1)}`),
    )
  : new ProgressLog((line) => process.stderr.write(`${line}\n`)).start()
try {
  const results = await verify({
    baseUrl,
    ...(config === undefined ? {} : { config }),
    tokens: [tokens[0] as string, tokens[1] as string],
    ...(values.spec === undefined ? {} : { spec: values.spec }),
    ...(profile === undefined ? {} : { profile: profile as Profile }),
    ...(only ? { only: only as Layer[] } : {}),
    ...(values.checks === undefined ? {} : { checks: list(values.checks) ?? [] }),
    ...(values['exclude-checks'] === undefined
      ? {}
      : { excludeChecks: list(values['exclude-checks']) ?? [] }),
    ...(values.requests === undefined || consumer ? {} : { requests: positive('requests', values.requests) }),
    ...(consumer && values.consumer
      ? {
          consumer: {
            file: values.consumer,
            contract: consumer,
            perOperation: positive('requests', values.requests) ?? DEFAULTS.consumerRequests,
          },
        }
      : {}),
    ...(values.sequences === undefined ? {} : { sequences: positive('sequences', values.sequences) }),
    ...(seed === undefined ? {} : { seed }),
    ...(values.case === undefined ? {} : { case: values.case }),
    ...(values.path === undefined ? {} : { path: values.path }),
    ...(values['replay-path'] === undefined ? {} : { replayPath: values['replay-path'] }),
    readOnly: values['read-only'] ?? false,
    keep: values.keep ?? false,
    anyToken: values['any-token'] ?? false,
    ...(values.rate === undefined ? {} : { rate: positive('rate', values.rate) }),
    ...(values['headers-timeout'] === undefined
      ? {}
      : { headersTimeoutMs: (positive('headers-timeout', values['headers-timeout']) ?? 0) * 1000 }),
    ...(values.wait === undefined ? {} : { waitMs: (positive('wait', values.wait) ?? 0) * 1000 }),
    ...(webhookPort === undefined
      ? {}
      : {
          webhook: {
            port: webhookPort,
            secret: webhookSecret as string,
            ...(webhookWait === undefined ? {} : { waitMs: webhookWait * 1000 }),
            ...(webhookHold === undefined ? {} : { holdMs: Math.round(webhookHold * 1000) }),
            ...(values['webhook-no-fail-attempts'] ? { failAttempts: false } : {}),
          },
          // Said at once, whatever the terminal: with port 0 it is the only way to learn the address.
          onWebhookReceiver: (url: string) => console.error(`receiving newPlant events at ${url}`),
        }),
    command: `plant-store-verify --base-url ${baseUrl}`,
    onProgress: (line) => log.update(line),
    // Said at once, on a line of its own: the progress line is rewritten, and in a log seldom printed.
    onNotice: (line) => process.stderr.write(`${interactive ? '\r\x1b[K' : ''}verify: ${line}\n`),
  })
  log.stop()
  if (interactive) process.stderr.write('\r\x1b[K')
  const durationMs = Date.now() - results.startedAt
  // The document's operations, for the parameters coverage counts (verify read the same one).
  let entries: OperationEntry[] = []
  let promises: DocumentPromise[] | undefined
  // The kit profile's promises, which a run of the interface leaves out: said as not judged.
  let outsideProfile: DocumentPromise[] = []
  try {
    const chosen = (profile as Profile | undefined) ?? 'interface'
    entries = (await loadDocument(values.spec, chosen)).operations
    promises = await loadPromises(values.spec, chosen)
    const ids = new Set(promises.map((p) => p.id))
    if (chosen !== 'kit')
      outsideProfile = (await loadPromises(values.spec, 'kit')).filter((p) => !ids.has(p.id))
  } catch {
    // Read once already by the run: only the parameters and promises go uncounted if it cannot be read again.
  }
  const coverage = coverageOf(results, entries, promises, outsideProfile)
  const met = minCoverage === undefined || meets(coverage, minCoverage)
  const title = `Verification of ${baseUrl}`
  const run = {
    results,
    coverage,
    title,
    baseUrl,
    durationMs,
    met,
    ...(minCoverage === undefined ? {} : { minCoverage }),
  }
  writeReports(reportsAsked(reportFiles), run)
  process.exitCode = results.failed || !met ? 1 : 0
  if (publishTo && values.publish !== undefined) {
    const published = await publishVerification(
      publishTo as Exclude<typeof publishTo, string>,
      values.publish,
      run,
    )
    console.error(`verify: ${published.line}`)
    if (!published.ok) process.exitCode = 2
  }
} catch (error) {
  log.stop()
  if (interactive) process.stderr.write('\r\x1b[K')
  // A team's check or hook that threw says so in its own words: no --help would help.
  if (error instanceof TeamCodeError) {
    console.error(`plant-store-verify: ${error.message}`)
    process.exit(2)
  }
  if (error instanceof VerifyUsageError) usage(error.message)
  throw error
}
