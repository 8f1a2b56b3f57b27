// A query parameter's boundary cases: a string parameter gets a value of digits alone, valid, which a
// store that reads it as a number would refuse; a cursor, the server's to make, gets none.
import { describe, expect, it } from 'vitest'
import { queryCases } from '../cases/boundaries.js'

describe('the boundary cases of a query parameter', () => {
  it('send a string parameter digits alone, as a valid value', () => {
    const tag = queryCases({ name: 'tag', in: 'query', schema: { type: 'string', maxLength: 64 } })
    const digits = tag.find((c) => c.covers === 'tag digits only (valid)')
    expect(digits?.values).toEqual(['42'])
    expect(digits?.defect).toBeUndefined()
  })

  it('leave the digits out where the length does not allow two, and for a cursor', () => {
    const short = queryCases({ name: 'code', in: 'query', schema: { type: 'string', maxLength: 1 } })
    expect(short.map((c) => c.covers)).not.toContain('code digits only (valid)')
    const cursor = queryCases({ name: 'cursor', in: 'query', schema: { type: 'string', maxLength: 1024 } })
    expect(cursor.map((c) => c.covers)).not.toContain('cursor digits only (valid)')
  })
})
