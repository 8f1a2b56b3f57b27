// The broker's configuration, from the environment: where it keeps its data, its tokens, its clean-up.

export const DEV_TOKEN = 'dev-token'

/** The longest application, version, environment or branch name. */
export const MAX_NAME = 200

export interface BrokerConfig {
  host: string
  port: number
  /** A SQLite file, or postgres://… for PostgreSQL. */
  databaseUrl: string
  /** Bearer tokens: the write token also reads. */
  writeToken: string
  readToken?: string
  /** Reads with no token at all. */
  openReads: boolean
  /** Whether the write token is the development one, since none was set. */
  devToken: boolean
  /** The largest body taken, in bytes. */
  bodyLimit: number
  mainBranches: string[]
  /** Clean-up: on by default, at start and once a day; keeps anything younger than this. */
  cleanUp: boolean
  keepDays: number
  /** Told of each version published (a POST of JSON), so that a store's verification can be started. */
  notifyUrl?: string
  logLevel: string
}

const positive = (name: string, text: string | undefined, fallback: number): number => {
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number, not ${JSON.stringify(text)}`)
  return value
}

const flag = (name: string, text: string | undefined, fallback: boolean): boolean => {
  if (text === undefined || text === '') return fallback
  if (text === 'true' || text === 'false') return text === 'true'
  throw new Error(`${name} must be true or false, not ${JSON.stringify(text)}`)
}

const notifyUrl = (text: string): string => {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw new Error(`BROKER_NOTIFY_URL must be an http or https URL, not ${JSON.stringify(text)}`)
  return text
}

export function loadConfig(env: Record<string, string | undefined> = process.env): BrokerConfig {
  const production = env.NODE_ENV === 'production'
  const writeToken = env.BROKER_WRITE_TOKEN || undefined
  if (!writeToken && production) throw new Error('BROKER_WRITE_TOKEN must be set when NODE_ENV=production')
  return {
    host: env.HOST || '127.0.0.1',
    port: positive('PORT', env.PORT, 9292),
    databaseUrl: env.DATABASE_URL || './data/broker.db',
    writeToken: writeToken ?? DEV_TOKEN,
    devToken: writeToken === undefined,
    ...(env.BROKER_READ_TOKEN ? { readToken: env.BROKER_READ_TOKEN } : {}),
    openReads: flag('BROKER_OPEN_READS', env.BROKER_OPEN_READS, false),
    bodyLimit: positive('BROKER_BODY_LIMIT', env.BROKER_BODY_LIMIT, 4 * 1024 * 1024),
    mainBranches: (env.BROKER_MAIN_BRANCHES || 'main,master')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    cleanUp: flag('BROKER_CLEAN_UP', env.BROKER_CLEAN_UP, true),
    keepDays: positive('BROKER_KEEP_DAYS', env.BROKER_KEEP_DAYS, 90),
    ...(env.BROKER_NOTIFY_URL ? { notifyUrl: notifyUrl(env.BROKER_NOTIFY_URL) } : {}),
    logLevel: env.LOG_LEVEL || 'info',
  }
}
