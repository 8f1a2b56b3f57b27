// The WWW-Authenticate syntax the www_authenticate_on_401 check holds a 401 to (RFC 9110, section 11.6.1).
import { describe, expect, it } from 'vitest'
import { challengeSyntaxProblem } from '../checks/challenge-syntax.js'

describe('challengeSyntaxProblem', () => {
  it.each([
    'Bearer',
    'Bearer realm="plant-store"',
    'Bearer realm="plant-store", error="invalid_token", error_description="the token \\"x\\" expired"',
    'bearer realm=plant-store,error=invalid_token',
    'Bearer realm="a" , , Basic realm="b", charset="UTF-8"',
    'Negotiate abc==, Bearer',
    'Bearer  ',
  ])('takes %s', (value) => {
    expect(challengeSyntaxProblem(value)).toBeUndefined()
  })

  it.each([
    ['Bearer realm="plant-store", error="invalid_token"Stryker was here!', 'character 50'],
    ['Bearer realm="plant-store" error="invalid_token"', 'character 28'],
    ['realm="plant-store"', 'character 6'],
    ['Bearer realm="unclosed', 'character 14'],
    ['', 'no challenge'],
    [', ,', 'no challenge'],
  ])('refuses %s', (value, where) => {
    expect(challengeSyntaxProblem(value)).toContain(where)
  })
})
