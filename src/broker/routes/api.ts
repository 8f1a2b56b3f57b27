// The broker's HTTP API (its document: openapi.ts): publishing, verifications, environments,
// deployments and releases; can-i-deploy, check-document, the matrix, the index and the clean-up.
import { HttpError } from '@plant-store/core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { MAX_NAME } from '../config.js'
import type { Access } from '../plugins/auth.js'
import type { Kind } from '../store/version-row.js'

type Params = Record<string, string>
type Query = Record<string, string | string[] | undefined>

const reading = { config: { access: 'read' as Access } }

/** A query parameter given once and not empty; 400 naming it otherwise. */
export function one(query: Query, name: string): string {
  const value = query[name]
  if (typeof value !== 'string' || value === '')
    throw new HttpError(400, `the query parameter ${name} is required, once`)
  if (value.length > MAX_NAME)
    throw new HttpError(400, `the query parameter ${name} is longer than ${MAX_NAME} characters`)
  return value
}

/** The body as a JSON object; 400 when it is missing or something else. */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'string' || body === '')
    throw new HttpError(400, 'the body must be a JSON object, and there is none')
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch (error) {
    throw new HttpError(400, `the body is not JSON: ${(error as Error).message}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'the body must be a JSON object')
  return value as Record<string, unknown>
}

const text = (body: unknown): string => {
  if (typeof body !== 'string' || body === '')
    throw new HttpError(400, 'the body must be JSON, and there is none')
  return body
}

/** application, version and environment of a deployment or release body. */
function placement(body: unknown): { application: string; version: string; environment: string } {
  const value = jsonObject(body)
  for (const key of ['application', 'version', 'environment'])
    if (typeof value[key] !== 'string' || value[key] === '' || (value[key] as string).length > MAX_NAME)
      throw new HttpError(
        400,
        `the body's "${key}" must be a name of 1 to ${MAX_NAME} characters, not ${JSON.stringify(value[key])}`,
      )
  return value as never
}

export default async function api(app: FastifyInstance): Promise<void> {
  const broker = app.broker

  app.get('/healthz', { config: { access: 'open' } }, async () => ({ status: 'ok' }))

  app.get('/applications', reading, async () => broker.applications())
  app.get('/applications/:application', reading, async (request) =>
    broker.application((request.params as Params).application ?? ''),
  )
  app.get('/applications/:application/versions/:version', reading, async (request) => {
    const { application = '', version = '' } = request.params as Params
    return broker.versionDetail(application, version)
  })

  const publish = (kind: Kind) => async (request: FastifyRequest, reply: { code(n: number): unknown }) => {
    const { application = '', version = '' } = request.params as Params
    const branch = one(request.query as Query, 'branch')
    const result = await broker.publish({ kind, application, version, branch, body: text(request.body) })
    reply.code(result.created ? 201 : 200)
    const { version: row } = result
    return {
      application: row.application,
      version: row.version,
      branch: row.branch,
      [kind === 'store' ? 'document' : 'contract']: row.content_hash,
      created: result.created,
    }
  }
  app.put('/applications/:application/versions/:version/contract', publish('consumer'))
  app.put('/applications/:application/versions/:version/document', publish('store'))

  app.post('/applications/:application/versions/:version/verifications', async (request, reply) => {
    const { application = '', version = '' } = request.params as Params
    const recorded = await broker.recordVerification({
      application,
      version,
      report: jsonObject(request.body),
    })
    return reply.code(201).send(recorded)
  })

  app.get('/applications/:application/versions/:version/verifications/:id', reading, async (request) => {
    const { application = '', version = '', id = '' } = request.params as Params
    return broker.verificationDetail(application, version, id)
  })

  app.get('/contents/:hash', reading, async (request, reply) => {
    const { body } = await broker.content((request.params as Params).hash ?? '')
    return reply.type('application/json').send(body)
  })

  app.get('/environments', reading, async () => broker.environments())
  app.put('/environments/:environment', async (request, reply) => {
    const { production } = jsonObject(request.body)
    if (typeof production !== 'boolean')
      throw new HttpError(400, 'the body\'s "production" must be true or false')
    const name = (request.params as Params).environment ?? ''
    const { created } = await broker.putEnvironment(name, production)
    return reply.code(created ? 201 : 200).send({ name, production })
  })

  app.post('/deployments', async (request, reply) => {
    const input = placement(request.body)
    const { replaced } = await broker.recordDeployment(input)
    return reply.code(201).send({ ...input, replaced })
  })
  app.post('/releases', async (request, reply) => {
    const input = placement(request.body)
    const { created } = await broker.recordRelease(input)
    return reply.code(created ? 201 : 200).send(input)
  })
  app.post('/releases/support-ended', async (request) => {
    const input = placement(request.body)
    await broker.recordSupportEnded(input)
    return { ...input, supportEnded: true }
  })

  app.get('/can-i-deploy', reading, async (request) => {
    const query = request.query as Query
    return broker.canIDeploy(one(query, 'application'), one(query, 'version'), one(query, 'to'))
  })
  // A what-if: it stores nothing, so a read token may ask it.
  app.post('/check-document', reading, async (request) => broker.checkDocument(text(request.body)))
  app.get('/matrix', reading, async () => broker.matrix())
  app.get('/uses', reading, async () => broker.uses())
  app.post('/clean-up', async (request) => {
    const given = (request.query as Query).keepDays
    if (given === undefined) return broker.cleanUp()
    const days = Number(given)
    if (typeof given !== 'string' || !Number.isInteger(days) || days < 0)
      throw new HttpError(400, `keepDays must be a whole number of days, not ${JSON.stringify(given)}`)
    return broker.cleanUp(days)
  })
}
