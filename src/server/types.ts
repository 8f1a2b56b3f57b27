// Request and handler types derived from the generated document types.

import type { operations, ProbeOperationId, WebhookOperationId } from '@plant-store/core'
import type { FastifyReply, FastifyRequest } from 'fastify'

export type OperationId = Exclude<keyof operations, WebhookOperationId>

type JsonBody<T> = T extends { content: { 'application/json': infer B } } ? B : never
type Responses<K extends OperationId> = operations[K]['responses']

/** The request parts of operation K, as the document types them. */
export interface RequestOf<K extends OperationId> {
  Body: operations[K] extends { requestBody: infer R } ? JsonBody<R> : undefined
  Params: operations[K]['parameters'] extends { path: infer P } ? P : undefined
  Querystring: NonNullable<operations[K]['parameters']['query']>
}

/** What a handler of K returns: a success body of K, or nothing for a bodiless success. */
export type SuccessOf<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends 200 | 201
    ? JsonBody<Responses<K>[S]>
    : S extends 204
      ? undefined
      : never
}[keyof Responses<K>]

export type Handler<K extends OperationId> = (
  request: FastifyRequest<RequestOf<K>>,
  reply: FastifyReply,
) => Promise<SuccessOf<K>>

export type { ProbeOperationId }

/** One handler per plant operation of the document: a missing one fails to compile. */
export type Handlers = { [K in Exclude<OperationId, ProbeOperationId>]: Handler<K> }

export type ProbeHandlers = { [K in ProbeOperationId]: Handler<K> }
