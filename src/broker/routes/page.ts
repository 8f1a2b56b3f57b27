// The web page a team opens: consumers by environment, the matrix, one contract's view, the "who uses
// this" index, and a form that judges a draft of the document. Rendered on the server: no script at
// all, styles from one stylesheet, under a CSP that allows nothing else.
import { HttpError } from '@plant-store/core'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Access } from '../plugins/auth.js'
import type { Row } from '../store/can-i-deploy.js'
import { short } from '../store/content.js'

const POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

const CSS = `body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
nav a{margin-right:1rem}table{border-collapse:collapse;margin:.5rem 0 1.5rem;width:100%}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f3f3f3}
.ok{background:#e3f6e3}.bad{background:#fbdcdc;color:#8a0000}.unknown{background:#fff4cc}
code{font-size:13px}textarea{width:100%;height:12rem;font:13px monospace}ul{margin:0;padding-left:1.2rem}`

const esc = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function html(reply: FastifyReply, title: string, body: string) {
  return reply
    .header('content-security-policy', POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<link rel="stylesheet" href="/broker.css"></head><body>
<nav><a href="/">Environments and matrix</a><a href="/ui/uses">Who uses this</a><a href="/ui/check">Check a draft</a><a href="/docs">API</a></nav>
<h1>${esc(title)}</h1>${body}</body></html>`)
}

const yes = (ok: boolean, good: string, bad: string) =>
  `<td class="${ok ? 'ok' : 'bad'}">${ok ? good : bad}</td>`

function findingList(findings: Row['findings']): string {
  const breaking = findings.filter((f) => f.class === 'breaking')
  if (!breaking.length) return ''
  return `<ul>${breaking.map((f) => `<li>${esc(f.operation)} ${esc(f.where)}: ${esc(f.detail)}</li>`).join('')}</ul>`
}

function matrixTable(rows: Row[]): string {
  if (!rows.length) return '<p>Nothing to compare yet: publish a contract and a document.</p>'
  return `<table><thead><tr><th>Consumer</th><th>Version</th><th>Store</th><th>Store version</th><th>Compatible</th><th>Verified</th><th>Findings</th></tr></thead><tbody>
${rows
  .map(
    (r) =>
      `<tr><td>${esc(r.consumer)}</td><td><code>${esc(short(r.consumerVersion))}</code></td><td>${esc(r.store)}</td><td><code>${esc(short(r.storeVersion))}</code></td>${yes(r.compatible, 'yes', 'no')}${yes(r.verified, 'yes', 'no')}<td>${findingList(r.findings)}</td></tr>`,
  )
  .join('\n')}</tbody></table>`
}

const reading = { config: { access: 'read' as Access } }

export default async function page(app: FastifyInstance): Promise<void> {
  const broker = app.broker

  app.get('/broker.css', { config: { access: 'open' } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'max-age=300').send(CSS),
  )

  app.get('/', reading, async (_request, reply) => {
    const environments = await broker.byEnvironment()
    const sections = environments.map(({ environment, production, versions }) => {
      const rows = versions.map(
        (v) =>
          `<tr><td>${esc(v.application)}</td><td>${v.kind}</td><td><a href="/ui/versions/${encodeURIComponent(v.application)}/${encodeURIComponent(v.version)}"><code>${esc(short(v.version))}</code></a></td><td>${esc(v.branch)}</td><td>${v.how}</td><td class="${v.ok === undefined ? 'unknown' : v.ok ? 'ok' : 'bad'}">${esc(v.state)}</td><td>${esc(v.created_at)}</td></tr>`,
      )
      return `<h2>${esc(environment)}${production ? ' (production)' : ''}</h2>${
        rows.length
          ? `<table><thead><tr><th>Application</th><th>Kind</th><th>Version</th><th>Branch</th><th>How</th><th>State</th><th>Published</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
          : '<p>Nothing deployed or released here.</p>'
      }`
    })
    const matrix = await broker.matrix()
    return html(
      reply,
      'Plant Store contract broker',
      `${sections.join('') || '<p>No environment yet.</p>'}<h2>The matrix</h2>${matrixTable(matrix)}`,
    )
  })

  app.get('/ui/versions/:application/:version', reading, async (request, reply) => {
    const { application = '', version = '' } = request.params as Record<string, string>
    const detail = await broker.versionDetail(application, version)
    const hash = (detail.contract ?? detail.document) as string
    const content = await broker.content(hash)
    const pretty = JSON.stringify(JSON.parse(content.body), null, 2)
    const verifications = detail.verifications
      .map(
        (v) =>
          `<tr>${yes(v.passed, 'passed', 'failed')}<td>${esc(v.baseUrl)}</td><td>${esc(v.verdict)}</td><td>${esc(v.createdAt)}</td></tr>`,
      )
      .join('')
    return html(
      reply,
      `${application} ${short(version)}`,
      `<p>Branch <code>${esc(detail.branch)}</code>, ${content.kind} <code>${short(hash)}</code>, published ${esc(detail.createdAt)}.</p>
${verifications ? `<h2>Verifications</h2><table><tbody>${verifications}</tbody></table>` : ''}
<h2>${content.kind === 'contract' ? 'What it uses' : 'The document'}</h2><pre><code>${esc(pretty)}</code></pre>`,
    )
  })

  app.get('/ui/uses', reading, async (_request, reply) => {
    const { document, entries } = await broker.uses()
    const rows = entries
      .map(
        (e) =>
          `<tr class="${e.users.length ? '' : 'unknown'}"><td><code>${esc(e.place)}</code></td><td>${e.users.length ? `<ul>${e.users.map((u) => `<li>${esc(u)}</li>`).join('')}</ul>` : 'no running consumer'}</td></tr>`,
      )
      .join('')
    return html(
      reply,
      'Who uses this',
      document
        ? `<p>Every operation, parameter, status and field of ${esc(document)}, with the consumer versions that use it. What no running consumer uses can go.</p><table><thead><tr><th>Place</th><th>Used by</th></tr></thead><tbody>${rows}</tbody></table>`
        : '<p>No store document is deployed in production or on a main branch.</p>',
    )
  })

  const form = (draft = '') =>
    `<form method="post" action="/ui/check"><p><label for="draft">A draft of the document, as JSON</label></p><textarea id="draft" name="draft">${esc(draft)}</textarea><p><button type="submit">Check the draft</button></p></form>`

  app.get('/ui/check', reading, async (_request, reply) =>
    html(
      reply,
      'Check a draft of the document',
      `<p>Judged against every consumer deployed, released or on a main branch; nothing is stored.</p>${form()}`,
    ),
  )
  app.post('/ui/check', reading, async (request, reply) => {
    const draft = (request.body as Record<string, string> | undefined)?.draft
    if (typeof draft !== 'string' || draft.trim() === '')
      throw new HttpError(400, 'the form\'s "draft" is empty')
    const result = await broker.checkDocument(draft)
    const rows = result.consumers
      .map(
        (c) =>
          `<tr class="${c.compatible ? 'ok' : 'bad'}"><td>${esc(c.consumer)}</td><td><code>${esc(short(c.version))}</code></td><td>${esc(c.where.join(', '))}</td><td>${c.compatible ? 'serves it' : 'breaks it'}</td><td>${findingList(c.findings)}</td></tr>`,
      )
      .join('')
    return html(
      reply,
      `The draft: ${result.answer === 'yes' ? 'no running consumer breaks' : 'it breaks a consumer'}`,
      `<ul class="reasons">${result.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>
<table><thead><tr><th>Consumer</th><th>Version</th><th>Where</th><th>Verdict</th><th>Findings</th></tr></thead><tbody>${rows}</tbody></table>${form(draft)}`,
    )
  })
}
