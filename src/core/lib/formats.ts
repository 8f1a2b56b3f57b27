// The number formats of the document's request schemas, in one module: createAjv registers them, and the
// validators compiled ahead of time (generated/request-validators.ts) import them, so both check alike.
const INT32_MIN = -(2 ** 31)
// Stryker disable next-line ArithmeticOperator: equivalent: the document's only int32 of a request, a page's limit, has a maximum of 100, far below either bound.
const INT32_MAX = 2 ** 31 - 1

/** Ajv format definitions, by name. */
export const formats = {
  // As ajv-formats checks int32.
  int32: { type: 'number', validate: (n: number) => Number.isInteger(n) && n <= INT32_MAX && n >= INT32_MIN },
  // Ajv sees int64 values through validatable(): every in-range value arrives as a safe integer.
  int64: { type: 'number', validate: (n: number) => Number.isSafeInteger(n) },
} as const
