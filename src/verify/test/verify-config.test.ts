// A team's own checks and hooks: a configuration file the command finds in its working directory (or
// is given with --config), a check of the team's that fails against a running server with its name in
// every report and exit 1, selected like a built-in one, a beforeRequest hook whose header every
// request carries (set-up and clean-up included), however it changes the headers, beforeRun and
// afterRun, and each way a configuration goes wrong: a hook or check that throws, a beforeRequest hook
// that changes what the run cannot send, a name a built-in check has, a module that does not load.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { defineCheck, defineConfig, verify } from '@plant-store/verify'
import { describe, expect, it } from 'vitest'
import type { JsonReport } from '../report/json.js'
import { type Hooks, hooksOf, type OutgoingRequest } from '../run/config.js'
import { CONFIG_FILES, configFile, loadConfig } from '../run/config-file.js'
import { configTests, failing, from, small, tokens } from './config-projects.js'

const { project, run, recording, storeUrl, work } = configTests()

// Each case runs the command, some of them several times: minutes on a busy machine.
describe('a configuration file', { timeout: 480_000 }, () => {
  it('is found in the working directory, and its check fails the run with its name in every report', async () => {
    const cwd = await project(
      'found',
      'plant-store-verify.config.mjs',
      `import { defineCheck, defineConfig } from ${from}\nexport default defineConfig({ checks: [${failing}] })\n`,
    )
    const { exit, output } = await run(cwd, [
      ...small,
      '--only',
      'examples',
      '--json',
      'r.json',
      '--junit',
      'r.xml',
    ])
    expect(exit, output).toBe(1)
    expect(output).toMatch(/✗ gateway_header — \w+ \(examples: /)
    const report = JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')) as JsonReport
    expect(report.checks).toContain('gateway_header')
    expect(report.failures.some((f) => f.check === 'gateway_header')).toBe(true)
    const rows = report.rows.filter((r) => r.check === 'gateway_header')
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row.failed).toBeGreaterThan(0)
    expect(await readFile(join(cwd, 'r.xml'), 'utf8')).toMatch(/name="gateway_header"><failure/)
  })

  it('is selected with --checks and left out with --exclude-checks, like a built-in check', async () => {
    const cwd = await project(
      'selected',
      'plant-store-verify.config.mjs',
      `import { defineCheck, defineConfig } from ${from}\nexport default defineConfig({ checks: [${failing}] })\n`,
    )
    const only = await run(cwd, [
      ...small,
      '--only',
      'examples',
      '--checks',
      'gateway_header',
      '--json',
      'o.json',
    ])
    expect(only.exit, only.output).toBe(1)
    const report = JSON.parse(await readFile(join(cwd, 'o.json'), 'utf8')) as JsonReport
    expect(new Set(report.rows.map((r) => r.check))).toEqual(new Set(['gateway_header']))
    const without = await run(cwd, [...small, '--only', 'examples', '--exclude-checks', 'gateway_header'])
    expect(without.exit, without.output).toBe(0)
    expect(without.output).not.toMatch(/gateway_header/)
  })

  it('is named with --config, and its hooks run: a header on every request, before and after the run', async () => {
    const cwd = await project(
      'hooks',
      'team.config.mjs',
      `import { writeFileSync } from 'node:fs'
import { defineConfig } from ${from}
export default defineConfig({
  hooks: {
    beforeRun() { writeFileSync('before-run', 'yes') },
    beforeRequest(request) { request.headers['x-team-key'] = 'k-' + request.method },
    afterRun(results) { writeFileSync('after-run', String(results.requests)) },
  },
})
`,
    )
    const proxy = await recording()
    const { exit, output } = await run(cwd, [...small, '--config', 'team.config.mjs'], proxy.url)
    expect(exit, output).toBe(0)
    // Every layer's requests, the set-up and clean-up ones among them (a DELETE of what the run created),
    // and the security layer's methods a path does not take (PATCH, TRACE, OPTIONS) or that the
    // document settles (HEAD). FOO and `get`, to each of the document's two paths, never reach the
    // proxy's handler: Node's parser refuses them first.
    expect(proxy.seen.length).toBeGreaterThan(100)
    expect(proxy.seen.filter((h) => h['x-team-key'] === undefined)).toEqual([])
    expect(new Set(proxy.seen.map((h) => h['x-team-key']))).toEqual(
      new Set(['k-GET', 'k-POST', 'k-PUT', 'k-DELETE', 'k-PATCH', 'k-HEAD', 'k-TRACE', 'k-OPTIONS']),
    )
    expect(await readFile(join(cwd, 'before-run'), 'utf8')).toBe('yes')
    expect(Number(await readFile(join(cwd, 'after-run'), 'utf8'))).toBe(proxy.seen.length + 2 * 2)
  })

  it.each([
    [
      'beforeRun throws',
      `hooks: { beforeRun() { throw new Error('the test store is not ready') } }`,
      /the beforeRun hook failed: the test store is not ready/,
    ],
    [
      'beforeRequest throws',
      `hooks: { beforeRequest() { throw new Error('no key in the vault') } }`,
      /the beforeRequest hook failed: no key in the vault/,
    ],
    [
      'beforeRequest changes the URL',
      `hooks: { beforeRequest(request) { return { ...request, url: request.url + '&page=2' } } }`,
      /the beforeRequest hook changed the request's URL: the run sends the request it judges/,
    ],
    [
      'afterRun throws',
      `hooks: { afterRun() { throw new Error('cannot upload the results') } }`,
      /the afterRun hook failed: cannot upload the results/,
    ],
    [
      'a check throws',
      `checks: [defineCheck({ name: 'broken', description: 'a check that throws', run: () => { throw new Error('oops') } })]`,
      /the check broken failed: oops/,
    ],
    [
      'a check answers a promise',
      `checks: [defineCheck({ name: 'late', description: 'a check that awaits', run: async () => [] })]`,
      /the check late returned a promise/,
    ],
  ])('ends the run with exit 2 and its message when %s', async (name, body, message) => {
    const cwd = await project(
      `throws-${name.replace(/\W+/g, '-')}`,
      'plant-store-verify.config.mjs',
      `import { defineCheck, defineConfig } from ${from}\nexport default defineConfig({ ${body} })\n`,
    )
    const { exit, stderr, output } = await run(cwd, [...small, '--only', 'examples'])
    expect(exit, output).toBe(2)
    expect(stderr).toMatch(message)
  })

  it.each([
    [
      'a name a built-in check has',
      `import { defineCheck, defineConfig } from ${from}\nexport default defineConfig({ checks: [defineCheck({ name: 'status_code_conformance', description: 'mine', run: () => [] })] })\n`,
      /the check status_code_conformance has the name of a built-in check/,
    ],
    [
      'a module that does not load',
      'export default {\n',
      /cannot load the configuration .*plant-store-verify\.config\.mjs/,
    ],
    ['no default export', 'export const checks = []\n', /has no default export/],
    ['an unknown hook', `export default { hooks: { beforeRequets() {} } }\n`, /unknown hook beforeRequets/],
    [
      'a name with capitals',
      `import { defineCheck } from ${from}\nexport default { checks: [defineCheck({ name: 'Mine', description: 'x', run: () => [] })] }\n`,
      /a check's name is lower case/,
    ],
  ])('is a usage error (exit 2) with %s', async (name, text, message) => {
    const cwd = await project(`bad-${name.replace(/\W+/g, '-')}`, 'plant-store-verify.config.mjs', text)
    const { exit, stderr, output } = await run(cwd, ['--only', 'examples'])
    expect(exit, output).toBe(2)
    expect(stderr).toMatch(message)
  })

  it('refuses a --config that is not there, and two configuration files in one directory', async () => {
    const cwd = await project('two', CONFIG_FILES[0] as string, 'export default {}\n')
    await writeFile(join(cwd, CONFIG_FILES[1] as string), 'export default {}\n')
    expect(() => configFile(undefined, cwd)).toThrow(/more than one configuration file here/)
    expect(() => configFile('missing.mjs', cwd)).toThrow(/no configuration file missing\.mjs/)
    expect(configFile(CONFIG_FILES[1], cwd)).toBe(join(cwd, CONFIG_FILES[1] as string))
    expect(configFile(undefined, work())).toBeUndefined()
  })

  it('loads a .ts configuration where Node strips types, and says why not where it cannot', async () => {
    const cwd = await project(
      'typed',
      'plant-store-verify.config.ts',
      `import { type CheckExchange, defineCheck, defineConfig } from ${from}\nconst names = (exchange: CheckExchange): string[] => []\nexport default defineConfig({ checks: [defineCheck({ name: 'typed', description: 'typed', run: names })] })\n`,
    )
    const file = configFile(undefined, cwd) as string
    // This Node strips types; one that does not (22.12 to 22.17) is told so, not handed a syntax error.
    const saved = Object.getOwnPropertyDescriptor(process.features, 'typescript')
    try {
      Object.defineProperty(process.features, 'typescript', { value: false, configurable: true })
      await expect(loadConfig(file)).rejects.toThrow(
        /does not strip TypeScript types; Node 22\.18 or newer does/,
      )
    } finally {
      if (saved) Object.defineProperty(process.features, 'typescript', saved)
    }
    const { exit, output } = await run(cwd, [...small, '--only', 'examples', '--checks', 'typed'])
    expect(exit, output).toBe(0)
    expect(output).toMatch(/\btyped\b/)
  })
})

describe('a beforeRequest hook', () => {
  const request = () => ({
    method: 'GET',
    url: 'http://127.0.0.1:1/plants',
    headers: { accept: 'application/json', authorization: 'Bearer a' },
  })
  const sentWith = async (beforeRequest: NonNullable<Hooks['beforeRequest']>) => {
    const send = hooksOf({ hooks: { beforeRequest } }).beforeRequest
    if (!send) throw new Error('the hook was not taken')
    return send(request())
  }

  it('has the request sent with its headers: changed in place, assigned anew, or those it returns', async () => {
    await expect(
      sentWith((r) => {
        r.headers['x-api-key'] = 'k'
        delete r.headers.accept
      }),
    ).resolves.toEqual({ authorization: 'Bearer a', 'x-api-key': 'k' })
    await expect(
      sentWith((r) => {
        r.headers = { ...r.headers, 'X-Api-Key': 'k' }
      }),
    ).resolves.toEqual({ accept: 'application/json', authorization: 'Bearer a', 'x-api-key': 'k' })
    await expect(
      sentWith(async (r) => ({ ...r, headers: { ...r.headers, Authorization: 'Bearer b' } })),
    ).resolves.toEqual({ accept: 'application/json', authorization: 'Bearer b' })
  })

  it.each([
    [
      'changes the method',
      (r: OutgoingRequest) => ({ ...r, method: 'POST' }),
      "changed the request's method",
    ],
    ['adds a body', (r: OutgoingRequest) => ({ ...r, body: '{}' }), "changed the request's body"],
    ['returns something else', () => 'key' as unknown as OutgoingRequest, 'returned string'],
    [
      'sets a header to a number',
      (r: OutgoingRequest) => {
        ;(r.headers as Record<string, unknown>)['x-count'] = 5
      },
      'set the header "x-count" to number',
    ],
    [
      'sets a header HTTP cannot carry',
      (r: OutgoingRequest) => {
        r.headers['x-key'] = 'a\nb'
      },
      'set the header "x-key" to "a\\nb", which HTTP cannot carry',
    ],
  ])('refuses, in one line naming beforeRequest, one that %s', async (_name, hook, message) => {
    const error = await sentWith(hook).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    const { message: said } = error as Error
    expect(said.startsWith(`the beforeRequest hook ${message}`), said).toBe(true)
    expect(said).not.toContain('\n')
  })
})

describe('the same configuration given to verify()', { timeout: 240_000 }, () => {
  it('judges every answer by the team’s check too, and calls its hooks', async () => {
    const calls: string[] = []
    const config = defineConfig({
      checks: [
        defineCheck({
          name: 'ids_are_bigint',
          description: 'every plant id read is a bigint, every digit kept',
          run: ({ response }) =>
            (Array.isArray(response.body) ? response.body : [response.body])
              .filter((p) => p && typeof p === 'object' && 'id' in p && typeof p.id !== 'bigint')
              .map((p) => `id ${String((p as { id: unknown }).id)} is not a bigint`),
        }),
        defineCheck({
          name: 'no_plant_named_fern',
          description: 'the run never reads back a plant named Fern',
          run: ({ operationId, response }) =>
            operationId === 'getPlant' && (response.body as { name?: unknown } | undefined)?.name === 'Fern'
              ? ['a plant named Fern']
              : [],
        }),
      ],
      hooks: {
        beforeRun: () => {
          calls.push('beforeRun')
        },
        beforeRequest: (request) => {
          if (!calls.includes('beforeRequest')) calls.push('beforeRequest')
          request.headers['x-team-key'] = 'k'
        },
        afterRun: (results) => {
          calls.push(`afterRun ${results.failed}`)
        },
      },
    })
    const results = await verify({ baseUrl: storeUrl(), tokens, seed: 7, requests: 40, sequences: 4, config })
    const summary = results
      .distinctFailures()
      .map((f) => results.failureText(f))
      .join('\n')
    expect(results.stopped, summary).toEqual([])
    // The document's examples assume a Fern, which the run reads back: the team's rule is broken.
    expect(new Set(results.failures.map((f) => f.check)), summary).toEqual(new Set(['no_plant_named_fern']))
    expect(results.failures.map((f) => f.operationId)).toContain('getPlant')
    expect(calls).toEqual(['beforeRun', 'beforeRequest', 'afterRun true'])
    const rows = results.rows().filter((r) => r.check === 'ids_are_bigint')
    expect(rows.reduce((n, r) => n + r.passed, 0)).toBeGreaterThan(100)
    expect(rows.reduce((n, r) => n + r.failed, 0)).toBe(0)
    expect(results.description('no_plant_named_fern')).toBe('the run never reads back a plant named Fern')
  })

  it('refuses a team check named like a built-in one, or like another of its own', async () => {
    const mine = (name: string) => defineCheck({ name, description: 'mine', run: () => [] })
    await expect(
      verify({ baseUrl: storeUrl(), tokens, config: { checks: [mine('link_conformance')] } }),
    ).rejects.toThrow(/the check link_conformance has the name of a built-in check/)
    await expect(
      verify({ baseUrl: storeUrl(), tokens, config: { checks: [mine('a'), mine('a')] } }),
    ).rejects.toThrow(/the check a has the name of another of your checks/)
  })
})
