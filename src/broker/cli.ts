// plant-store-broker <command>: serve (the default), and the commands a CI job runs against a broker
// over HTTP: publish, publish-document, record-verification, record-deployment, record-release,
// record-support-ended, create-environment, can-i-deploy, check-document, clean-up.
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { type ConsumerContract, joinContracts, parseContract, serializeContract } from '@plant-store/core'
import { JSON_SCHEMA, load } from 'js-yaml'
import type { CanIDeploy, DraftCheck } from './store/can-i-deploy.js'

const usage = `Usage: plant-store-broker [command] [options]

Commands:
  serve                    start the broker (the default); configured by DATABASE_URL, BROKER_WRITE_TOKEN,
                           BROKER_READ_TOKEN, BROKER_OPEN_READS, BROKER_BODY_LIMIT, BROKER_MAIN_BRANCHES,
                           BROKER_CLEAN_UP, BROKER_KEEP_DAYS, BROKER_NOTIFY_URL, HOST, PORT
  publish FILE...          publish a consumer's contract (several files of one consumer are joined)
                           --version V --branch B [--application NAME, default the contract's consumer]
  publish-document FILE    publish the store's document (YAML or JSON) --version V --branch B
                           [--application NAME, default plant-store]
  record-verification FILE record plant-store-verify's --json report --version V [--application NAME]
  create-environment NAME  create or change an environment [--production]
  record-deployment        --application A --version V --environment E: replaces what was deployed there
  record-release           --application A --version V --environment E: several stay live at once
  record-support-ended     --application A --version V --environment E
  can-i-deploy             --application A --version V --to E [--retry-while-unknown N]
                           [--retry-interval SECONDS, default 10] [--json]
  check-document DRAFT     judge a draft of the document against what runs; stores nothing [--json]
  clean-up                 remove now every version that is not a main branch's latest, not deployed or
                           released, and older than --keep-days N (default: the broker's BROKER_KEEP_DAYS)

Options of every command but serve:
  --broker URL             the broker (default BROKER_URL, else http://127.0.0.1:9292)
  --token TOKEN            its token (default BROKER_TOKEN, else BROKER_WRITE_TOKEN)
  -h, --help               this text

Exit status: 0 done (can-i-deploy: yes); 1 refused (can-i-deploy: no; check-document: the draft breaks
a running consumer); 2 a usage error, or can-i-deploy's unknown (the missing fact is printed).`

class Usage extends Error {}

const options = {
  application: { type: 'string' },
  version: { type: 'string' },
  branch: { type: 'string' },
  environment: { type: 'string' },
  to: { type: 'string' },
  production: { type: 'boolean', default: false },
  broker: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean', default: false },
  'retry-while-unknown': { type: 'string' },
  'retry-interval': { type: 'string' },
  'keep-days': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values']

const required = (values: Values, name: 'application' | 'version' | 'branch' | 'environment' | 'to') => {
  const value = values[name]
  if (!value) throw new Usage(`--${name} is required`)
  return value
}

const count = (text: string | undefined, name: string, fallback: number): number => {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 0) throw new Usage(`--${name} must be a whole number, not ${text}`)
  return value
}

function readFile(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new Usage(`${file} cannot be read: ${(error as Error).message}`)
  }
}

/** A document file as JSON text: YAML read as swagger-parser reads it. */
function documentText(file: string): string {
  const text = readFile(file)
  if (/\.json$/i.test(file)) return text
  try {
    return JSON.stringify(load(text, { schema: JSON_SCHEMA }))
  } catch (error) {
    throw new Usage(`${file} is not YAML: ${(error as Error).message}`)
  }
}

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

function client(values: Values) {
  const base = (values.broker ?? process.env.BROKER_URL ?? 'http://127.0.0.1:9292').replace(/\/+$/, '')
  const token = values.token ?? process.env.BROKER_TOKEN ?? process.env.BROKER_WRITE_TOKEN
  return async <T>(method: string, path: string, body?: string): Promise<T> => {
    let answer: Response
    try {
      answer = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      })
    } catch (error) {
      throw new Refused(
        0,
        `the broker at ${base} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`,
      )
    }
    const text = await answer.text()
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      value = text
    }
    if (!answer.ok)
      throw new Refused(answer.status, `${answer.status}: ${(value as { message?: string }).message ?? text}`)
    return value as T
  }
}

const q = encodeURIComponent

function printRows(rows: CanIDeploy['rows']): void {
  for (const r of rows) {
    console.log(
      `  ${r.consumer} ${r.consumerVersion} | ${r.store} ${r.storeVersion} | ${r.compatible ? 'compatible' : 'INCOMPATIBLE'} | ${r.verified ? 'verified' : 'NOT VERIFIED'}`,
    )
    for (const f of r.findings) console.log(`      ${f.class}: ${f.operation} ${f.where}: ${f.detail}`)
  }
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  const [command = 'serve', ...files] = positionals
  if (values.help) {
    console.log(usage)
    return 0
  }
  if (command === 'serve') {
    await (await import('./server.js')).serve()
    return -1
  }
  const call = client(values)
  const placement = () =>
    JSON.stringify({
      application: required(values, 'application'),
      version: required(values, 'version'),
      environment: required(values, 'environment'),
    })
  switch (command) {
    case 'publish': {
      if (!files.length) throw new Usage('publish takes the contract file(s) to publish')
      let contract: ConsumerContract | undefined
      for (const file of files) {
        let read: ConsumerContract
        try {
          read = parseContract(readFile(file), file)
        } catch (error) {
          throw new Usage((error as Error).message)
        }
        contract = contract ? joinContracts(contract, read) : read
      }
      const joined = contract as ConsumerContract
      const application = values.application ?? joined.consumer
      const answer = await call<{ contract: string; created: boolean }>(
        'PUT',
        `/applications/${q(application)}/versions/${q(required(values, 'version'))}/contract?branch=${q(required(values, 'branch'))}`,
        serializeContract(joined),
      )
      console.log(
        `${application} ${values.version}: contract ${answer.contract.slice(0, 12)} ${answer.created ? 'published' : 'was published already'}`,
      )
      return 0
    }
    case 'publish-document': {
      const [file] = files
      if (!file) throw new Usage('publish-document takes the document file to publish')
      const application = values.application ?? 'plant-store'
      const answer = await call<{ document: string; created: boolean }>(
        'PUT',
        `/applications/${q(application)}/versions/${q(required(values, 'version'))}/document?branch=${q(required(values, 'branch'))}`,
        documentText(file),
      )
      console.log(
        `${application} ${values.version}: document ${answer.document.slice(0, 12)} ${answer.created ? 'published' : 'was published already'}`,
      )
      return 0
    }
    case 'record-verification': {
      const [file] = files
      if (!file) throw new Usage("record-verification takes the verifier's --json report")
      const application = values.application ?? 'plant-store'
      const answer = await call<{ passed: boolean }>(
        'POST',
        `/applications/${q(application)}/versions/${q(required(values, 'version'))}/verifications`,
        readFile(file),
      )
      console.log(
        `${application} ${values.version}: verification recorded (${answer.passed ? 'passed' : 'failed'})`,
      )
      return 0
    }
    case 'create-environment': {
      const [name] = files
      if (!name) throw new Usage("create-environment takes the environment's name")
      await call('PUT', `/environments/${q(name)}`, JSON.stringify({ production: values.production }))
      console.log(`environment ${name}${values.production ? ' (production)' : ''} recorded`)
      return 0
    }
    case 'record-deployment': {
      const answer = await call<{ replaced: boolean }>('POST', '/deployments', placement())
      console.log(
        `${values.application} ${values.version} deployed in ${values.environment}${answer.replaced ? ', replacing the version deployed there' : ''}`,
      )
      return 0
    }
    case 'record-release':
      await call('POST', '/releases', placement())
      console.log(`${values.application} ${values.version} released in ${values.environment}`)
      return 0
    case 'record-support-ended':
      await call('POST', '/releases/support-ended', placement())
      console.log(`${values.application} ${values.version}: support ended in ${values.environment}`)
      return 0
    case 'can-i-deploy':
      return canIDeploy(values, call)
    case 'check-document': {
      const [file] = files
      if (!file) throw new Usage('check-document takes the draft document')
      const result = await call<DraftCheck>('POST', '/check-document', documentText(file))
      if (values.json) console.log(JSON.stringify(result, null, 2))
      else {
        console.log(
          `check-document ${file}: ${result.answer === 'yes' ? 'no running consumer breaks' : 'BREAKS a running consumer'}`,
        )
        for (const reason of result.reasons) console.log(`  ${reason}`)
        for (const c of result.consumers.filter((c) => !c.compatible))
          for (const f of c.findings.filter((f) => f.class === 'breaking'))
            console.log(`    ${c.consumer} ${c.version}: ${f.operation} ${f.where}: ${f.detail}`)
        for (const need of result.verificationNeeded)
          for (const change of need.changes)
            console.log(
              `    ${need.store} ${need.version} (${need.environment}): ${change.rule} ${change.pointer}: ${change.detail}`,
            )
      }
      return result.answer === 'yes' ? 0 : 1
    }
    case 'clean-up': {
      const days = values['keep-days']
      const removed = await call<Record<string, number>>(
        'POST',
        `/clean-up${days === undefined ? '' : `?keepDays=${count(days, 'keep-days', 0)}`}`,
      )
      console.log(
        `clean-up removed ${removed.versions} versions, ${removed.contents} contents, ${removed.verifications} verifications`,
      )
      return 0
    }
    default:
      throw new Usage(`there is no command ${command}`)
  }
}

async function canIDeploy(values: Values, call: ReturnType<typeof client>): Promise<number> {
  const application = required(values, 'application')
  const version = required(values, 'version')
  const to = required(values, 'to')
  const retries = count(values['retry-while-unknown'], 'retry-while-unknown', 0)
  const interval = count(values['retry-interval'], 'retry-interval', 10)
  let result: CanIDeploy
  for (let attempt = 0; ; attempt++) {
    try {
      result = await call<CanIDeploy>(
        'GET',
        `/can-i-deploy?application=${q(application)}&version=${q(version)}&to=${q(to)}`,
      )
    } catch (error) {
      // An unknown application, version or environment is a missing fact too, and may come.
      if (!(error instanceof Refused) || error.status !== 404) throw error
      result = { answer: 'unknown', reasons: [error.message.replace(/^404: /, '')], rows: [] }
    }
    if (result.answer !== 'unknown' || attempt >= retries) break
    if (!values.json)
      console.log(
        `unknown (${result.reasons.join('; ')}): asking again in ${interval} s (${retries - attempt} more)`,
      )
    await sleep(interval * 1000)
  }
  if (values.json) console.log(JSON.stringify(result, null, 2))
  else {
    console.log(`can-i-deploy ${application} ${version} to ${to}: ${result.answer}`)
    for (const reason of result.reasons) console.log(`  ${reason}`)
    printRows(result.rows)
  }
  return result.answer === 'yes' ? 0 : result.answer === 'no' ? 1 : 2
}

try {
  const code = await run(process.argv.slice(2))
  if (code >= 0) process.exitCode = code
} catch (error) {
  if (error instanceof Usage || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    // Node's text goes on to explain positionals: the option is what a person needs.
    const message = (error as Error).message
    console.error(`${/^Unknown option '[^']+'/.exec(message)?.[0] ?? message}\n\n${usage}`)
    process.exitCode = 2
  } else if (error instanceof Refused) {
    console.error(error.message)
    process.exitCode = 1
  } else throw error
}
