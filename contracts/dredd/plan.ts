// The plan run-dredd.ts writes and hooks.cjs reads: per Dredd transaction, the request to send,
// the state to set up first and the answer to expect. Types only; the hooks are plain JavaScript.

import type { JsonSchema } from '@plant-store/verify'
import type { Plant } from '@plant-store/verify/testing'

export interface PlannedRequest {
  method: string
  /** Path and query, replacing the URI Dredd expanded from the document. */
  uri: string
  headers: Record<string, string>
  body: string
}

export type PlannedTransaction =
  | {
      skip?: undefined
      /** The response example Dredd's transaction stands for, and whose request is sent. */
      example: string
      operationId: string
      request: PlannedRequest
      /** Plants the token's principal must own first (x-given-plants), created through the API. */
      setup: { token: string; plants: Plant[] } | undefined
      expected: {
        status: number
        /** The example body as JSON text; '' for a response without a body. */
        body: string
        bodySchema: JsonSchema | undefined
        /** Lower-case header names that must be present. */
        requiredHeaders: string[]
        /** Lower-case names of documented headers this example need not carry (e.g. Link on the last page). */
        optionalHeaders: string[]
      }
    }
  | { skip: string }

export interface DreddPlan {
  serverUrl: string
  /** Keyed by Dredd's transaction name, e.g. `/plants > Create a plant > 200 > application/json`. */
  transactions: Record<string, PlannedTransaction>
  /** Where the hooks write what they saw, for run-dredd.ts to check. */
  resultsFile: string
}
