// The team's configuration beyond a run: its checks listed in --help, a replay judged by them with
// its requests sent through beforeRequest, and the validating proxy judging live traffic by them.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { repoRoot, startProcess } from '../../../scripts/lib/processes.js'
import type { JsonReport } from '../report/json.js'
import { configTests, failing, from, tokens, tsx } from './config-projects.js'

const { project, run, recording, storeUrl, started } = configTests()

describe('the same configuration in --help, a replay and the proxy', { timeout: 240_000 }, () => {
  const config = `import { defineCheck, defineConfig } from ${from}
export default defineConfig({
  checks: [${failing}],
  hooks: { beforeRequest(request) { request.headers['x-team-key'] = 'replayed' } },
})
`

  it('lists the team’s checks in --help, after the built-in ones', async () => {
    const cwd = await project('help', 'plant-store-verify.config.mjs', config)
    const { exit, output } = await run(cwd, ['--help'])
    expect(exit, output).toBe(0)
    const own = output.slice(output.indexOf('Your checks, from plant-store-verify.config.mjs:'))
    expect(own).toMatch(/^ {2}gateway_header +every answer carries the X-Gateway header our gateway adds$/m)
    expect(output.indexOf('status_code_conformance')).toBeLessThan(output.indexOf('Your checks'))
  })

  it('judges a replay by the team’s check and sends its requests through beforeRequest', async () => {
    const cwd = await project('replay', 'plant-store-verify.config.mjs', config)
    const har = join(cwd, 'session.har')
    const entry = (method: string, path: string, status: number) => ({
      request: {
        method,
        url: `http://recorded.example${path}`,
        headers: [{ name: 'Authorization', value: 'Bearer principal-1' }],
      },
      response: { status, headers: [], content: { mimeType: 'application/json', text: '[]' } },
    })
    await writeFile(har, JSON.stringify({ log: { entries: [entry('GET', '/plants?limit=1', 200)] } }))
    const proxy = await recording()
    const json = join(cwd, 'replay.json')
    const { exit, output } = await run(
      cwd,
      ['--replay', har, '--allow-differences', '--json', json],
      proxy.url,
    )
    expect(exit, output).toBe(1)
    expect(output).toMatch(/departs from the document \[gateway_header\]: the X-Gateway header is missing/)
    expect(proxy.seen.map((h) => h['x-team-key'])).toEqual(['replayed'])
    const report = JSON.parse(await readFile(json, 'utf8')) as JsonReport
    expect(report.failures.map((f) => f.check)).toContain('gateway_header')
  })

  it('has the proxy judge each answer by the team’s checks too, named in X-Contract-Violations', async () => {
    // A second check reads the body a create sent: the proxy keeps it for the team's checks.
    const sentName = `defineCheck({
  name: 'sent_name',
  description: 'a create sends a name',
  run: ({ request }) => (request.method !== 'POST' || /"name"/.test(request.body ?? '') ? [] : ['no name sent']),
})`
    const cwd = await project(
      'proxy',
      'plant-store-verify.config.mjs',
      `import { defineCheck, defineConfig } from ${from}\nexport default defineConfig({ checks: [${failing}, ${sentName}] })\n`,
    )
    const proxy = await startProcess({
      name: 'plant-store-proxy',
      command: process.execPath,
      args: [
        '--import',
        tsx,
        '--input-type=module',
        '-e',
        `import { main } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'src/verify/proxy/proxy-cli.ts')).href)}
await main(['--upstream', ${JSON.stringify(storeUrl())}, '--port', '0'])`,
      ],
      cwd,
      listening: /Proxy is listening on (http:\/\/[^\s,]+)/,
    })
    started(proxy)
    expect(proxy.output()).toMatch(
      /Your checks, from plant-store-verify\.config\.mjs: gateway_header, sent_name/,
    )
    const authorization = `Bearer ${tokens[0]}`
    const answer = await fetch(`${proxy.url}/plants`, { headers: { authorization } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-contract-violations')).toBe('1; gateway_header')
    const send = (body: string) =>
      fetch(`${proxy.url}/plants`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body,
      })
    const created = await send(JSON.stringify({ id: 424242, name: 'Fern' }))
    expect(created.status).toBe(200)
    expect(created.headers.get('x-contract-violations')).toBe('1; gateway_header')
    const refused = await send(JSON.stringify({ id: 424243, tag: 'no name' }))
    expect(refused.status).toBe(400)
    expect(refused.headers.get('x-contract-violations')).toBe('2; gateway_header, sent_name')
  })
})
