// Configuration from the environment: defaults, and a clear refusal naming the variable at fault.
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config.js'

describe('loadConfig', () => {
  it('has defaults for a developer machine', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      logLevel: 'info',
      databaseUrl: 'sqlite:./data/plants.db',
      devPrincipal: true,
      sandbox: false,
    })
    expect([...config.tokens]).toEqual([['dev-token', 'dev']])
  })

  it('maps AUTH_TOKENS to principals', () => {
    const config = loadConfig({ AUTH_TOKENS: 'alice:token-a,bob:token-b' })
    expect(config.devPrincipal).toBe(false)
    expect([...config.tokens]).toEqual([
      ['token-a', 'alice'],
      ['token-b', 'bob'],
    ])
  })

  it.each([
    [{ PORT: 'eighty' }, /PORT must be integer, not "eighty"/],
    [{ PORT: '70000' }, /PORT must be <= 65535, not 70000/],
    [
      { LOG_LEVEL: 'loud' },
      /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud"/,
    ],
    [{ NODE_ENV: 'prod' }, /NODE_ENV must be one of development, production, test, not "prod"/],
    [
      { DATABASE_URL: 'mysql://x' },
      /DATABASE_URL must be sqlite:<file>, sqlite::memory: or postgres:\/\/user:password@host:port\/database \(postgresql:\/\/ too\), not "mysql:\/\/x"/,
    ],
    [{ DATABASE_URL: 'postgres://[x' }, /DATABASE_URL is not a URL; write it as postgres:\/\/user/],
    [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE must be >= 1, not 0/],
    [
      { DATABASE_STATEMENT_TIMEOUT_MS: 'soon' },
      /DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds, at least 1, not "soon"/,
    ],
    [
      { AUTH_TOKENS: 'alice' },
      /AUTH_TOKENS must be principal:token pairs separated by commas, e.g. alice:token-a,bob:token-b, not "alice"/,
    ],
    [{ AUTH_TOKENS: 'alice:t,bob:t' }, /AUTH_TOKENS lists one token twice/],
    [
      { NODE_ENV: 'production' },
      /AUTH_TOKENS, or JWT_JWKS_URL or JWT_SECRET, must be set when NODE_ENV=production/,
    ],
    [{ NODE_ENV: 'production', SANDBOX: 'true' }, /SANDBOX .* NODE_ENV=production/],
    [
      { SANDBOX: 'true', SANDBOX_MAX_PRINCIPALS: '0' },
      /SANDBOX_MAX_PRINCIPALS must be a whole number of principals, at least 1, not 0/,
    ],
    [
      { SANDBOX: 'true', SANDBOX_MAX_PRINCIPALS: 'many' },
      /SANDBOX_MAX_PRINCIPALS must be a whole number of principals, at least 1, not "many"/,
    ],
    [{ SANDBOX_MAX_PRINCIPALS: '50' }, /SANDBOX_MAX_PRINCIPALS bounds the sandbox: set SANDBOX=true too/],
    [
      { HEADERS_TIMEOUT_MS: 'ten' },
      /HEADERS_TIMEOUT_MS must be a whole number of milliseconds, at least 1, not "ten"/,
    ],
    [
      { REQUEST_TIMEOUT_MS: '0' },
      /REQUEST_TIMEOUT_MS must be a whole number of milliseconds, at least 1, not 0/,
    ],
    [
      { OVERLOAD_MAX_HEAP_USED_BYTES: '-1' },
      /OVERLOAD_MAX_HEAP_USED_BYTES must be a whole number of bytes, at least 0/,
    ],
    [{ NODE_ENV: 'production', AUTH_TOKENS: 'a:b', SIMULATE_FAULTS: 'true' }, /SIMULATE_FAULTS is for tests/],
  ])('refuses %j, naming the variable and its form', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })

  it.each(['postgres://plants:s%40cret@db.example:5432/plants', 'postgresql://db.example/plants'])(
    'accepts %s with the pool and timeout defaults',
    (url) => {
      expect(loadConfig({ DATABASE_URL: url })).toMatchObject({
        databaseUrl: url,
        databasePoolSize: 10,
        databaseConnectTimeoutMs: 2000,
        databaseStatementTimeoutMs: 5000,
      })
    },
  )

  it('has timeouts and an overload threshold by default', () => {
    const config = loadConfig({})
    expect(config.timeouts).toEqual({
      headers: 10_000,
      request: 30_000,
      keepAlive: 72_000,
      connection: 120_000,
    })
    expect(config.overload).toEqual({ maxEventLoopDelayMs: 1_000, maxHeapUsedBytes: 0, maxRssBytes: 0 })
    expect(config.simulateFaults).toBe(false)
  })

  it('trims the spaces around CORS_ORIGIN entries', () => {
    expect(loadConfig({ CORS_ORIGIN: ' https://a.example , http://localhost:5173,' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ])
  })

  it.each([
    [{}, '*'],
    [{ NODE_ENV: 'test' }, '*'],
    [{ SANDBOX: 'true' }, '*'],
    [{ NODE_ENV: 'production', AUTH_TOKENS: 'a:b' }, []],
    [{ NODE_ENV: 'production', AUTH_TOKENS: 'a:b', CORS_ORIGIN: '*' }, '*'],
    [
      { NODE_ENV: 'production', AUTH_TOKENS: 'a:b', CORS_ORIGIN: 'https://app.example' },
      ['https://app.example'],
    ],
  ])('with %j allows the origins %j', (env, origins) => {
    expect(loadConfig(env).corsOrigins).toEqual(origins)
  })

  it.each(['app.example', 'https://app.example/', 'https://app.example/path', '*,https://app.example'])(
    'refuses CORS_ORIGIN=%s, which is not an origin a browser sends',
    (value) => {
      expect(() => loadConfig({ CORS_ORIGIN: value })).toThrow(
        /CORS_ORIGIN must be \* or origins separated by commas, e.g. https:\/\/app.example,http:\/\/localhost:5173, and ".*" is not an origin/,
      )
    },
  )

  it('takes JWTs from a key set or a shared secret, with issuer and audience', () => {
    const jwks = loadConfig({
      NODE_ENV: 'production',
      JWT_JWKS_URL: 'https://id.example/.well-known/jwks.json',
      JWT_ISSUER: 'https://id.example',
      JWT_AUDIENCE: 'plant-store',
    })
    expect(jwks.jwt).toEqual({
      jwksUrl: new URL('https://id.example/.well-known/jwks.json'),
      issuer: 'https://id.example',
      audience: 'plant-store',
    })
    expect(jwks.devPrincipal).toBe(false)
    expect(jwks.tokens.size).toBe(0)
    const secret = loadConfig({ JWT_SECRET: 's'.repeat(32), JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' })
    expect(secret.jwt).toEqual({ secret: 's'.repeat(32), issuer: 'i', audience: 'a' })
    expect(secret.devPrincipal).toBe(false)
  })

  it.each([
    [{ JWT_SECRET: 's'.repeat(32) }, /JWT_ISSUER and JWT_AUDIENCE must be set with JWT_SECRET/],
    [{ JWT_JWKS_URL: 'https://id.example/jwks', JWT_ISSUER: 'i' }, /must be set with JWT_JWKS_URL/],
    [{ JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' }, /JWT_ISSUER and JWT_AUDIENCE need JWT_JWKS_URL or JWT_SECRET/],
    [
      {
        JWT_SECRET: 's'.repeat(32),
        JWT_JWKS_URL: 'https://id.example/jwks',
        JWT_ISSUER: 'i',
        JWT_AUDIENCE: 'a',
      },
      /set JWT_JWKS_URL or JWT_SECRET, not both/,
    ],
    [
      { JWT_JWKS_URL: 'http://id.example/jwks', JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' },
      /JWT_JWKS_URL must be an https:\/\/ URL \(http:\/\/ only on localhost\), not "http:\/\/id.example\/jwks"/,
    ],
    [{ JWT_JWKS_URL: 'jwks.json', JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' }, /JWT_JWKS_URL must be an https/],
    [
      { SANDBOX: 'true', JWT_SECRET: 's'.repeat(32), JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' },
      /SANDBOX accepts any token/,
    ],
  ])('refuses JWT settings %j that cannot work', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })

  it('refuses a short JWT_SECRET without repeating it', () => {
    expect(() => loadConfig({ JWT_SECRET: 'hunter2', JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' })).toThrow(
      /JWT_SECRET must be at least 32 characters/,
    )
    expect(() => loadConfig({ JWT_SECRET: 'hunter2', JWT_ISSUER: 'i', JWT_AUDIENCE: 'a' })).not.toThrow(
      /hunter2/,
    )
  })
})

describe('loadConfig: the newPlant webhook', () => {
  // Secrets of 24 and 32 bytes, and one a byte too short.
  const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`
  const OTHER = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
  const SHORT = `whsec_${Buffer.alloc(23, 7).toString('base64')}`
  const tokens = { AUTH_TOKENS: 'alice:token-a,bob:token-b' }

  it('is off without WEBHOOK_ENDPOINTS', () => {
    expect(loadConfig(tokens).webhooks).toBeUndefined()
  })

  it('maps principals to URLs, with every secret and the delivery defaults', () => {
    const { webhooks } = loadConfig({
      ...tokens,
      WEBHOOK_ENDPOINTS: 'alice=https://hooks.example/a, bob=http://localhost:9000/b',
      WEBHOOK_SECRET: `${SECRET},${OTHER}`,
    })
    expect(webhooks).toEqual({
      endpoints: new Map([
        ['alice', new URL('https://hooks.example/a')],
        ['bob', new URL('http://localhost:9000/b')],
      ]),
      secrets: [SECRET, OTHER],
      timeoutMs: 10_000,
      retryBaseMs: 5_000,
      retryMaxMs: 3_600_000,
      maxAttempts: 15,
      maxPending: 10_000,
      pollMs: 1_000,
      deliver: true,
    })
  })

  it.each([
    ['localhost', 'http://localhost:8080/hook'],
    ['127.0.0.1', 'http://127.0.0.1:8080/hook'],
    ['::1', 'http://[::1]:8080/hook'],
  ])('takes http:// to %s in production', (_host, url) => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ...tokens,
      WEBHOOK_ENDPOINTS: `alice=${url}`,
      WEBHOOK_SECRET: SECRET,
    })
    expect(config.webhooks?.endpoints.get('alice')?.href).toBe(new URL(url).href)
  })

  it('takes any principal when JSON Web Tokens name them, since a sub is not listed anywhere', () => {
    const config = loadConfig({
      JWT_SECRET: 'x'.repeat(32),
      JWT_ISSUER: 'https://id.example',
      JWT_AUDIENCE: 'plant-store',
      WEBHOOK_ENDPOINTS: 'user-7=https://hooks.example/7',
      WEBHOOK_SECRET: SECRET,
    })
    expect([...(config.webhooks?.endpoints.keys() ?? [])]).toEqual(['user-7'])
  })

  it.each([
    [
      { WEBHOOK_ENDPOINTS: 'alice=not a url', WEBHOOK_SECRET: SECRET },
      /^invalid configuration: WEBHOOK_ENDPOINTS gives alice "not a url", which is not an http:\/\/ or https:\/\/ URL$/,
    ],
    [
      { WEBHOOK_ENDPOINTS: 'alice=ftp://hooks.example/a', WEBHOOK_SECRET: SECRET },
      /WEBHOOK_ENDPOINTS gives alice "ftp:\/\/hooks.example\/a", which is not an http:\/\/ or https:\/\/ URL/,
    ],
    [
      { WEBHOOK_ENDPOINTS: 'https://hooks.example/a', WEBHOOK_SECRET: SECRET },
      /WEBHOOK_ENDPOINTS must be principal=url pairs separated by commas/,
    ],
    [
      { WEBHOOK_ENDPOINTS: 'carol=https://hooks.example/c', WEBHOOK_SECRET: SECRET },
      /^invalid configuration: WEBHOOK_ENDPOINTS names carol, who has no token in AUTH_TOKENS$/,
    ],
    [
      { WEBHOOK_ENDPOINTS: 'alice=https://a.example,alice=https://b.example', WEBHOOK_SECRET: SECRET },
      /WEBHOOK_ENDPOINTS gives alice more than one URL/,
    ],
    [
      { NODE_ENV: 'production', WEBHOOK_ENDPOINTS: 'alice=http://hooks.example/a', WEBHOOK_SECRET: SECRET },
      /WEBHOOK_ENDPOINTS gives alice an http:\/\/ URL to hooks.example; with NODE_ENV=production it must be https:\/\//,
    ],
    [
      { WEBHOOK_ENDPOINTS: 'alice=https://hooks.example/a' },
      /WEBHOOK_SECRET must be set with WEBHOOK_ENDPOINTS/,
    ],
    [
      { WEBHOOK_ENDPOINTS: 'alice=https://hooks.example/a', WEBHOOK_SECRET: SHORT },
      /^invalid configuration: WEBHOOK_SECRET must be whsec_ followed by the base64 of at least 24 random bytes$/,
    ],
    [
      { WEBHOOK_ENDPOINTS: 'alice=https://hooks.example/a', WEBHOOK_SECRET: `${SECRET},plain-secret` },
      /secret 2 of WEBHOOK_SECRET must be whsec_ followed by the base64 of at least 24 random bytes/,
    ],
    [{ WEBHOOK_TIMEOUT_MS: '0' }, /WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds, at least 1/],
  ])('refuses %j in one line', (env, message) => {
    let thrown: unknown
    try {
      loadConfig({ ...tokens, ...env })
    } catch (error) {
      thrown = error
    }
    const text = (thrown as Error | undefined)?.message ?? ''
    expect(text).toMatch(message)
    expect(text).not.toContain('\n')
    // A secret is never repeated back, right or wrong.
    expect(text).not.toContain(Buffer.alloc(23, 7).toString('base64').slice(0, 20))
  })
})
