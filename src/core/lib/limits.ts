// The limits the document's Limits section states, for the server and the in-process handlers alike.

/** The largest request body in bytes; a larger one is 413. */
export const BODY_LIMIT = 65536

/**
 * The request line and headers together, in bytes (Node's default max header size); more is 431. No
 * query value longer than this can arrive at all.
 */
export const HEADER_LIMIT = 16384

/** The longest path segment in characters (Fastify's default maxParamLength); a longer one is 414. */
export const PATH_SEGMENT_LIMIT = 100
