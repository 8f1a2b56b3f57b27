// The limits the document's Limits section states, for the server and the in-process handlers alike.

/** The largest request body in bytes; a larger one is 413. */
export const BODY_LIMIT = 65536
