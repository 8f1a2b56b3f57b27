// The store's failures that are not the caller's fault, as types every repository throws and
// app.ts answers: full is a 507, unavailable (read-only, I/O error, unreachable) a 503. A
// repository maps its engine's codes to these; anything else stays an internal error (500).

/** The store has no room for the write (a full disk, or its configured size cap). Nothing was changed. */
export class StoreFullError extends Error {
  // Stryker disable next-line StringLiteral: equivalent: the name shows only in the server's log; app.ts answers by the error's class.
  override readonly name = 'StoreFullError'
}

/** The store cannot take writes, or cannot be reached, for now (read-only, I/O error, connection lost). */
export class StoreUnavailableError extends Error {
  // Stryker disable next-line StringLiteral: equivalent: the name shows only in the server's log; app.ts answers by the error's class.
  override readonly name = 'StoreUnavailableError'
}
