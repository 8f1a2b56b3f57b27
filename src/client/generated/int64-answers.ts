// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.

import type { Int64Shape } from '../exact-json.js'

/** By `METHOD path status`: where the answer's JSON holds int64s. */
export const int64Answers: Record<string, Int64Shape> = {
  "GET /plants 200": {
    "items": {
      "properties": {
        "id": "int64"
      }
    }
  },
  "GET /plants/{id} 200": {
    "properties": {
      "id": "int64"
    }
  },
  "PUT /plants/{id} 200": {
    "properties": {
      "id": "int64"
    }
  }
}
