// The plant operations as Fastify handlers, one per operationId of spec/openapi.yaml: each adapts the
// framework-free operation of src/core/plant-operations.ts.

import {
  type InputOf,
  type PlantOperation as Operation,
  type PlantOperationId,
  plantOperations,
} from '@plant-store/core'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Handlers } from '../types.js'

const jsonType = 'application/json; charset=utf-8'

function adapt<K extends PlantOperationId>(operation: Operation<K>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const input = { body: request.body, params: request.params, query: request.query } as InputOf<K>
    const answer = await operation(request.server.repository, request.principal, input)
    reply.code(answer.status)
    if (answer.headers) reply.headers(answer.headers)
    // Text already JSON: with its type set, Fastify sends it without the route's serializer.
    if (answer.json !== undefined) return reply.type(jsonType).send(answer.json)
    return answer.body
  }
}

export const plantHandlers = Object.fromEntries(
  Object.entries(plantOperations).map(([id, operation]) => [
    id,
    adapt(operation as Operation<PlantOperationId>),
  ]),
) as unknown as Handlers
