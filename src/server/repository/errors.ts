// The store's failures that are not the caller's fault, as types every repository throws and
// app.ts answers: full is a 507, unavailable (read-only, I/O error, unreachable) a 503. A
// repository maps its engine's codes to these; anything else stays an internal error (500).

/** The store has no room for the write (a full disk, or its configured size cap). Nothing was changed. */
export class StoreFullError extends Error {
  override readonly name = 'StoreFullError'
}

/** The store cannot take writes, or cannot be reached, for now (read-only, I/O error, connection lost). */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError'
}
