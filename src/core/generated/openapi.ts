// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.

export interface paths {
    "/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plants
         * @description Lists the caller's plants in ascending order of id (addition to 1.0.0).
         *
         *     A page holds at most `limit` plants. When more follow, the `Link` header gives the next
         *     page with `rel="next"`; follow it as it is. Its target may be any URI reference RFC 8288
         *     allows (absolute, network-path, path-absolute, path-relative or query-only), resolved
         *     against the address of the request that got the page (RFC 8288 §3.2, RFC 3986 §5), as
         *     `new URL(target, requestUrl)` does. The kit's stores answer with a query-only reference,
         *     `<?limit=2&cursor=…>; rel="next"`, which keeps the request's path: paging keeps working
         *     behind a proxy or gateway that mounts the store under a path prefix the store does not
         *     know. The cursor in it is opaque: it may change form between versions, and only the
         *     server makes it.
         *
         *     **Paging while plants change (addition to 1.0.0).** Each page starts after the last plant
         *     of the page before: it holds the caller's plants, as they are when that page is read, whose
         *     ids are greater than the last id of the page before, the first `limit` of them in ascending
         *     order (and with `tag`, only those the filter keeps). So a plant created or deleted between
         *     two page reads changes only the pages still to come: no plant appears twice, and no plant
         *     that stays in the store from the first page read to the last is skipped. A plant created
         *     meanwhile shows on a later page when its id is greater than the last id already listed, and
         *     a plant deleted before its page is read does not show.
         */
        get: operations["listPlants"];
        put?: never;
        /**
         * Create a plant
         * @description Creates a new plant in the store.
         *
         *     Addition to 1.0.0: the `id` must not already belong to one of the caller's plants (`409`),
         *     and the answer to a missing or invalid token (`401`), an oversized body (`413`) and a body
         *     that is not JSON (`415`).
         */
        post: operations["createPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, any int64, in decimal digits with an optional minus sign and no leading
                 *     zeros or plus sign (addition to 1.0.0).
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        /**
         * Read a plant
         * @description Reads one of the caller's plants (addition to 1.0.0).
         */
        get: operations["getPlant"];
        /**
         * Replace a plant
         * @description Replaces the name and tag of one of the caller's plants; a tag left out is removed
         *     (addition to 1.0.0). The plant must exist: create it with `createPlant`.
         */
        put: operations["replacePlant"];
        post?: never;
        /**
         * Delete a plant
         * @description Deletes one of the caller's plants (addition to 1.0.0).
         */
        delete: operations["deletePlant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description `200` while the process runs and answers HTTP, whatever the state of the store: an
         *     instance that fails this should be restarted. No token is needed (addition to 1.0.0).
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description `200` when the store answers a trivial query within 1 second, `503` otherwise: a load
         *     balancer sends requests only to instances that answer `200`. No token is needed
         *     (addition to 1.0.0).
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    newPlant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new plant
         * @description Announces a plant just created: the store sends the plant, `id` included, to the URL whoever
         *     runs the store gave for the plant's owner, signed with a secret shared with the receiver
         *     (addition to 1.0.0).
         *
         *     **Which creates send one.** Each `createPlant` answered `200` sends exactly one event, and
         *     a refused one (`4xx`, `5xx`) none: the event is stored in the same transaction as the plant.
         *     Replacing or deleting a plant sends nothing. While too many events wait for delivery, a
         *     create is refused with `503` and `Retry-After`, so that no plant is created without its
         *     event.
         *
         *     **Delivery.** At least once: a receiver may get an event twice, and should do nothing the
         *     second time. `webhook-id` names the event and is the same on every attempt to deliver it,
         *     so it is the key for that. Any `2xx` answer ends the delivery; any other status, a
         *     redirect (redirects are not followed), no answer within 10 seconds or a refused connection
         *     is a failed attempt, retried with exponential backoff and jitter: the first retry within
         *     5 seconds, each wait about twice the last, at most 1 hour; after 15 attempts in all
         *     (about 2¾ to 5½ hours after the first) the event is kept as failed and logged, and not sent
         *     again; whoever runs the store may set other numbers. Events are not ordered: a retried event
         *     may arrive after a later one.
         *
         *     **Signature (Standard Webhooks).** Every attempt carries `webhook-id`, `webhook-timestamp`
         *     (when the attempt was signed, in seconds since the epoch) and `webhook-signature`:
         *     `v1,<base64 of HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the
         *     bytes of the shared secret, which is written `whsec_<base64>`. While a secret is being
         *     rotated the header holds one signature per secret, separated by spaces; a receiver accepts
         *     the event when any of them verifies. A receiver should verify the signature over the body
         *     exactly as received, before parsing it, and refuse a timestamp more than 5 minutes away
         *     from its clock. The body's `id` is an int64: read it without rounding.
         */
        post: operations["newPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Plant: {
            /** @description The name of the plant (its bound, 256 characters, is an addition to 1.0.0) */
            name: string;
            /** @description Tag to specify the type (its bound, 64 characters, is an addition to 1.0.0) */
            tag?: string;
        };
        NewPlant: components["schemas"]["Plant"] & {
            /**
             * Format: int64
             * @description Identification number of the plant
             */
            id: number | bigint;
        };
        /** @description A plant as the store keeps it: the fields of `NewPlant` (addition to 1.0.0). */
        StoredPlant: components["schemas"]["NewPlant"];
        /** @description What a liveness or readiness check found (addition to 1.0.0). */
        Status: {
            /** @constant */
            status: "ok";
        };
        Error: {
            /**
             * Format: int32
             * @description The answer's HTTP status code (its bounds, 400 to 599, are an addition to 1.0.0).
             */
            error: number;
            message: string;
        };
    };
    responses: {
        /**
         * @description The operation's path does not take the method the request used; `Allow` lists the methods
         *     it takes (addition to 1.0.0). Answered before the request is counted against a limit.
         */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The client did not send its headers, or its whole request, in time; the connection is
         *     closed. A layer in front of the store may answer it without a body (addition to 1.0.0).
         */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request's URI is longer than the store takes (every store takes 8000 bytes of request
         *     line and headers); the kit's server refuses a path segment over 100 characters. A layer in
         *     front of the store may answer it without a body (addition to 1.0.0).
         */
        UriTooLong: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request line and headers together are larger than the store takes (every store takes
         *     8000 bytes; the kit's server 16384). A layer in front of the store may answer it without a
         *     body (addition to 1.0.0).
         */
        RequestHeaderFieldsTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The store failed. Whether anything was changed is not known: read before retrying a change
         *     (addition to 1.0.0).
         */
        InternalServerError: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The instance is live, or ready (addition to 1.0.0). */
        StatusOk: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Status"];
            };
        };
        /** @description The id is not an int64 (addition to 1.0.0). */
        BadPlantId: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The bearer token is missing, malformed or not known (addition to 1.0.0). The message may
         *     say why (the kit's server: an expired JSON Web Token, another issuer, …).
         */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The caller has made more requests than its limit allows in the current window, or its
         *     address has failed authentication too often (addition to 1.0.0). `Retry-After` says in how
         *     many seconds to try again.
         */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The caller has no plant with this id (addition to 1.0.0). */
        NotFound: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request body is larger than the store takes (every store takes 65536 bytes; the kit's
         *     server no more). A layer in front of the store may answer it without a body (addition to
         *     1.0.0).
         */
        PayloadTooLarge: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request body is not `application/json` (addition to 1.0.0). The kit's server also
         *     refuses a body in a content coding, naming `identity` in `Accept-Encoding`.
         */
        UnsupportedMediaType: {
            headers: {
                "Accept-Encoding": components["headers"]["Accept-Encoding"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The store cannot serve for now (overloaded, its storage unreachable or read-only); nothing
         *     was changed. Try again after `Retry-After` seconds (addition to 1.0.0).
         */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The store is full; nothing was changed, and reads keep working. Writes succeed again once
         *     space is freed, deleting plants included (addition to 1.0.0).
         */
        InsufficientStorage: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description The plant's id, any int64, in decimal digits with an optional minus sign and no leading
         *     zeros or plus sign (addition to 1.0.0).
         */
        PlantId: number | bigint;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The methods the path takes, separated by commas, on every 405 (addition to 1.0.0).
         * @example GET, POST
         */
        Allow: string;
        /**
         * @description The content codings a request body may be in: `identity` alone, on a `415` for a body in
         *     another (addition to 1.0.0).
         * @example identity
         */
        "Accept-Encoding": "identity";
        /**
         * @description The quota policy the request was counted against, a structured field of the IETF draft
         *     "RateLimit header fields for HTTP": the policy's name, then `q` the requests a window
         *     allows and `w` the window in seconds. `"default"` is the principal's quota,
         *     `"failed-auth"` the address's for requests with a missing or unknown token. On every
         *     answer counted against a limit; an answer given before the request is counted (an
         *     overloaded or shutting-down server's `503`) has none (addition to 1.0.0).
         * @example "default";q=1000;w=60
         */
        "RateLimit-Policy": string;
        /**
         * @description Where the request left its quota policy, a structured field of the same IETF draft: the
         *     policy's name, then `r` the requests left in the window and `t` the seconds until the
         *     quota is whole again (on a `429`, `r=0` and `t` equal to `Retry-After`). Present whenever
         *     `RateLimit-Policy` is (addition to 1.0.0).
         * @example "default";r=998;t=42
         */
        RateLimit: string;
        /**
         * @description `<target of the next page>; rel="next"`, present when more plants follow
         *     (addition to 1.0.0). The target is any URI reference RFC 8288 allows: absolute
         *     (`https://store.example/plants?cursor=MQ`), network-path, path-absolute
         *     (`/plants?cursor=MQ`), path-relative (`plants?cursor=MQ`) or query-only
         *     (`?cursor=MQ`). A client resolves it against the address of the request that got the
         *     page (RFC 8288 §3.2, RFC 3986 §5), never against a base URL of its own. The kit's stores
         *     answer with a query-only reference, so that a proxy that mounts the store under a
         *     prefix (`/api/plants` → `/plants`) keeps paging working.
         * @example <?limit=1&cursor=MQ>; rel="next"
         */
        Link: string;
        /**
         * @description Seconds to wait before trying again, on every 429 and 503 (addition to 1.0.0).
         * @example 5
         */
        "Retry-After": string;
        /**
         * @description The bearer challenge (RFC 6750), on every 401 (addition to 1.0.0).
         * @example Bearer realm="plant-store"
         */
        "WWW-Authenticate": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPlants: {
        parameters: {
            query?: {
                /** @description The most plants to return in one page (addition to 1.0.0). */
                limit?: number;
                /**
                 * @description Where the page starts: copy it from the `Link` header of the page before
                 *     (addition to 1.0.0). A store makes its cursors at most 1024 characters long.
                 *
                 *     A cursor is good only for the principal whose page gave it (addition to 1.0.0):
                 *     another principal's request with it, as the `Link` target or in a list request of its
                 *     own, mid-listing or once that listing has ended, is answered `400` as a cursor the
                 *     server did not make, never with a page, so that the answer tells nothing of the first
                 *     principal's plants.
                 */
                cursor?: string;
                /**
                 * @description Only plants with exactly this tag (addition to 1.0.0); at most 64 characters, as a
                 *     plant's tag. Exactly: the same characters, compared as they are, so letter case,
                 *     surrounding spaces and the Unicode form of the same text (`é` as one character, or as
                 *     `e` and a combining accent) all make another tag, and so does a prefix of a tag.
                 */
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the caller's plants (addition to 1.0.0). */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredPlant"][];
                };
            };
            /** @description The limit or the cursor is not valid (addition to 1.0.0). */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPlant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description plant response */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            /** @description unexpected error */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            /**
             * @description A plant with this id already exists for this caller (addition to 1.0.0). Nothing is
             *     changed.
             */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getPlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, any int64, in decimal digits with an optional minus sign and no leading
                 *     zeros or plus sign (addition to 1.0.0).
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plant. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredPlant"];
                };
            };
            400: components["responses"]["BadPlantId"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replacePlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, any int64, in decimal digits with an optional minus sign and no leading
                 *     zeros or plus sign (addition to 1.0.0).
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Plant"];
            };
        };
        responses: {
            /** @description The plant as it is now stored. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredPlant"];
                };
            };
            /** @description The id or the body is not valid (addition to 1.0.0). */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    deletePlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, any int64, in decimal digits with an optional minus sign and no leading
                 *     zeros or plus sign (addition to 1.0.0).
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plant is deleted. */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadPlantId"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["StatusOk"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["StatusOk"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalServerError"];
            /**
             * @description The store did not answer in time (a database restarting or out of reach); the instance
             *     itself is alive, and answers `200` again by itself once the store does (addition to 1.0.0).
             */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    newPlant: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id, the same on every attempt to deliver it.
                 * @example msg_2b5c2c1e-6f3a-4e0b-9d54-0c8f6e0c9a11
                 */
                "webhook-id": string;
                /**
                 * @description When this attempt was signed, in whole seconds since 1970-01-01T00:00:00Z.
                 * @example 1767225600
                 */
                "webhook-timestamp": string;
                /**
                 * @description One or more `v1,<base64 HMAC-SHA256>` signatures, separated by spaces: one for each secret
                 *     the server signs with.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The plant as created. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["StoredPlant"];
            };
        };
        responses: {
            /**
             * @description The receiver has the event. Any other `2xx` ends the delivery as well; anything else is
             *     retried as the description says.
             */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
