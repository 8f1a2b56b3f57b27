// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.

import type { Document } from '../document.js'

export const document = {
  "openapi": "3.1.0",
  "info": {
    "title": "Plant Store",
    "version": "1.0.0",
    "summary": "A small store of plants.",
    "description": "A sample interface built around a plant store. A client creates plants in the store and,\nthrough the additions below, lists, reads, replaces and deletes them.\n\n**What is original and what is added.** The 1.0.0 interface shows one operation,\n`POST /plants` (`createPlant`), with the schemas `Plant`, `NewPlant` and `Error`, its `200` and\n`400` responses, and bearer authentication. Everything else in this document extends the\n1.0.0 interface, and each addition says so in its description.\n\n**The interface and the kit server's profile (addition).** This document is the interface every\nplant store keeps, whoever builds it and in whatever stack; `@plant-store/verify` judges a store\nby it. The kit's own server also does more, which no other store need do: its exact limits and\ntime-outs, the refusals its HTTP layer writes, health probes, rate-limit and security headers,\nrequest ids and its configuration. That is its profile: the text of `info.x-kit-profile`, and\nevery response, operation, header and example marked `x-kit-profile: true`. A store that leaves\nout all of those keeps the interface; `plant-store-verify --profile kit` judges the profile too.\n\n**Principals (addition).** Each bearer token belongs to one principal. A principal sees and\nchanges only its own plants, and plant ids are unique per principal: two principals may both\nown a plant with id 1. A request without a valid token is answered `401` whatever else is wrong\nwith it, save a method its path does not take (see Methods). What an answer hands a principal\nto send back (a `Link` target, its cursor, a plant id) is good for that principal alone: another\nprincipal's request with it is answered as if the first one's plants did not exist, `404` for a\nplant id and `400` for a cursor, as for a cursor the server did not make.\n\n**Errors (addition).** Every error answer that has a body has an `Error` body whose `error` is\nthe HTTP status code and whose `message` says what was wrong. Any operation may answer `500`\n(`components/responses/InternalServerError`), `503` with `Retry-After` when the store cannot\nserve for now (`components/responses/ServiceUnavailable`), and `429` with `Retry-After` when\nthe caller has sent more requests than the store allows (`components/responses/TooManyRequests`).\nWhere a request meets two conditions that this document does not order (a body the schema\nrefuses for a plant the caller does not have; such a body naming an id the caller already has),\nthe answer may be the status of either.\n\n**Methods (addition).** A method that a documented path does not take is refused (a `4xx`, an\n`Error` whenever a body is written) and changes nothing; answering it `405` with an `Allow`\nheader listing the methods the path takes, as RFC 9110 says, is recommended. Such a request\nwithout a valid token may get either that refusal or `401`: a store may check the method or the\ntoken first, and the kit's server checks the method. No path takes `HEAD`: a store may refuse it\nlike any other method a path does not take, as the kit's server does, or answer it as RFC 9110,\nsection 9.3.2, says, with the status and headers a `GET` would get and no content. A method\nthe store does not know at all, one no specification defines (`FOO`) or one spelled in lower\ncase (`get` is not `GET`: methods are case-sensitive, RFC 9110, section 9.1), may instead get\n`501`, as RFC 9110, section 9.1, says a server answers a method it does not recognize, and as\nthe kit's server answers it (an addition to this paragraph as first written).\n\n**Query strings (addition).** A query string is read as HTML forms write it\n(`application/x-www-form-urlencoded`, as `URLSearchParams` reads it): a `+` is a space, and a\nplus sign is sent as `%2B`. So `?tag=sweet+basil` asks for the tag `sweet basil`.\n\n**Limits (addition).** Every plant store accepts, at least, a request body of 65536 bytes and a\nrequest line and headers of 8000 bytes together (as RFC 9110, section 4.1, recommends for\nURIs). Beyond those sizes a store may refuse a request: `413` for a body, `414` for a URI,\n`431` for headers, or `400`. The schemas bound every string a client sends (a `name` at 256\ncharacters, a `tag` at 64, a `cursor` at 1024) well inside those sizes, whatever the characters\nand however they are escaped, so every request the schemas accept can arrive. A page holds at\nmost 100 plants. A refusal written by a layer in front of the store's own code (an HTTP server,\na proxy, a load balancer) may come without a body; when a body is written, it is an `Error`.\n\n**Bodies (addition).** A body is read as JSON, exactly: an integer may be written in any form\nJSON allows (`1000000000000000000`, `1e18` and `1000000000000000000.0` are the same id), and\nno digit of an int64 is lost. Keys a schema does not name are ignored, `__proto__`,\n`constructor` and `prototype` included; of duplicate keys, the last counts. Strings must be\nUnicode text: a lone surrogate escape such as `\\ud800` is a `400`. A body that is not\n`application/json` (parameters such as `charset` and the case of the type aside) is a `415`.\nAn answer may show properties a schema does not name (the schemas are open): a client ignores\nthem.\n\n**Webhooks (addition).** The store announces each new plant to a URL of the owner's\n(`webhooks.newPlant`): signed, delivered at least once, retried with backoff.\n\n**Contract fixtures.** A request example whose name matches a response example produces that\nresponse; a required parameter or request body with no example of that name takes its first\nexample. `x-given-plants` on a request example lists the plants the caller must already own\nfor the example to hold; `x-example-names` on a response without a body lists the request\nexamples that produce it. Tools ignore these `x-` fields; the contract suite reads them.\nOperations without a request body ignore any body sent with them.\n",
    "x-kit-profile": "**What the kit's server does beyond the interface.** A store built elsewhere need do none of\nthis; `plant-store-verify --profile kit` holds the kit's server to all of it.\n\n- **Headers.** Every answer carries an `X-Request-Id` header, an id the server makes for that\n  request and never one the client sent in `Request-Id` or `X-Request-Id` (an addition to this\n  profile as first written); a `500` says only `internal server error`, and the server's log\n  has the details under that id. Answers to operations that need a token carry\n  `Cache-Control: no-store`. Every JSON answer carries the\n  security headers of a REST API (OWASP's REST Security Cheat Sheet):\n  `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`,\n  `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and `Strict-Transport-Security`;\n  and none of those meant for a page a browser renders (`Cross-Origin-Opener-Policy`,\n  `Cross-Origin-Resource-Policy`, `Origin-Agent-Cluster`, `Referrer-Policy`,\n  `X-DNS-Prefetch-Control`, `X-Download-Options`, `X-Permitted-Cross-Domain-Policies`,\n  `X-XSS-Protection`). Those are for the one page the server serves, the documentation at\n  `/docs/`, whose answers carry them with a `Content-Security-Policy` that lets its scripts and\n  styles come from the server's origin and nothing else run, and refuse framing too.\n- **Methods.** A method that a documented path does not take is answered `405`, with an `Allow`\n  header listing the methods the path takes (`GET, POST` on `/plants`;\n  `components/responses/MethodNotAllowed`).\n- **Limits, exactly.** A request body may be at most 65536 bytes (`413` whatever its content\n  type, a body that is not JSON too: an addition to this profile as first written), the request\n  line and headers together at most 16384 bytes (`431`), a path segment at most 100 characters\n  (`414`),\n  each answered with an `Error` body and the connection closed. A JSON request body whose\n  objects and arrays lie more than 1000 levels within each other (the body itself the first) is a\n  `400`, and nothing of it is read (addition to 1.0.0). A client must send its headers\n  within 10 seconds and its whole request within 30 seconds, or it gets a `408`\n  (`components/responses/RequestTimeout`) and the connection is closed. An idle keep-alive\n  connection is closed after 72 seconds, and any connection on which nothing moves for\n  120 seconds. Whoever runs the server may change these (`HEADERS_TIMEOUT_MS`,\n  `REQUEST_TIMEOUT_MS`, `CONNECTION_TIMEOUT_MS`, `KEEP_ALIVE_TIMEOUT_MS`).\n- **Rate limits.** Each principal may make a set number of requests in a window (1000 a minute\n  unless the server is configured otherwise, `RATE_LIMIT_MAX`), and each client address a set\n  number of requests with a missing or unknown token (20 a minute, `AUTH_FAILURE_LIMIT`); past\n  either, the answer is `429` with `Retry-After`. The limits are counted by each server\n  instance. Every answer counted against a limit carries `RateLimit-Policy` and `RateLimit`\n  (the IETF draft \"RateLimit header fields for HTTP\"): the quota policy `\"default\"` for a\n  principal's requests, `\"failed-auth\"` for an address's requests with a missing or unknown\n  token. The health probes and the document itself are counted against no limit, and their\n  answers carry neither field (an addition to this profile as first written).\n- **Overload and storage.** The server answers `503` with `Retry-After` when its event loop\n  lags more than 1 second (by default), its store cannot take changes (read-only, an I/O\n  error, unreachable), a create finds too many webhook events waiting for delivery, or the\n  identity provider whose keys check a JSON Web Token cannot be reached; an operation that\n  changes plants may answer `507` when the store is full\n  (`components/responses/InsufficientStorage`). Nothing is changed by such a request, reads keep\n  working while only writes are refused, and the server serves again by itself once the cause\n  is gone.\n- **Refusals before any operation,** in the `Error` shape with the status HTTP gives them: a\n  request it cannot parse (`400`), an HTTP/1.1 request without `Host` (`400`), a path that is\n  not valid percent-encoding (`400`), an `Expect` other than `100-continue` (`417`), a method it\n  does not know or `CONNECT` (`501`), a transfer coding other than `chunked` before the final\n  `chunked` (`501`). A request whose body's length cannot be known (a `Transfer-Encoding` that\n  does not end in `chunked`, or comes with `Content-Length`; two `Content-Length` values) is a\n  `400`, and the connection is closed: nothing that follows it is read as a request. A body in\n  a content coding (`Content-Encoding` other than `identity`) is a `415` naming `identity` in\n  `Accept-Encoding`. A chunked body whose chunk extensions take more than 16384 bytes is a\n  `413`, and the connection is closed. Where one of these refusals has an example in\n  `components/examples` (`notHttp`, `methodNotImplemented`, `transferEncodingUnframed`,\n  `contentLengthTwice`, `contentLengthNotNumber`, `chunkExtensionsTooLarge`, additions to\n  1.0.0), its `Error` is the example's, word for word. A refusal that closes the connection for\n  its request says so with `Connection: close` (RFC 9112, section 9.6) (addition to 1.0.0). A\n  request whose body breaks off where it cannot be parsed gets one answer, its own if that has\n  begun and the `400` otherwise, and then the connection is closed (addition to 1.0.0).\n- **Health.** `GET /healthz` and `GET /readyz`, without a token, for process supervisors and\n  load balancers.\n- **Configuration.** Tokens (`AUTH_TOKENS`, or JSON Web Tokens from an identity provider:\n  `JWT_*`), the store (`DATABASE_URL`), webhook endpoints and secrets (`WEBHOOK_ENDPOINTS`,\n  `WEBHOOK_SECRET`) and the webhook's delivery settings (`WEBHOOK_TIMEOUT_MS`,\n  `WEBHOOK_RETRY_BASE_MS`, `WEBHOOK_RETRY_MAX_MS`, `WEBHOOK_MAX_ATTEMPTS`): the server's README\n  lists them all.\n",
    "contact": {
      "name": "Plant Store maintainers",
      "url": "https://plants.example.com/support",
      "email": "plants@example.com"
    },
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:3000",
      "description": "Local development, the real server on a developer's machine (`npm start`)",
      "x-internal": false
    },
    {
      "url": "http://127.0.0.1:4010",
      "description": "Local development, the Prism mock (`npm run mock`)",
      "x-internal": false
    },
    {
      "url": "https://plants.example.com",
      "description": "Production, a deployed instance behind TLS (a placeholder: whoever deploys the server puts\nits address here). The server answers at the root of its origin, as on a developer's machine.\n",
      "x-internal": false
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "tags": [
    {
      "name": "plants",
      "description": "The plants in the store"
    },
    {
      "name": "health",
      "description": "Liveness and readiness, for process supervisors and load balancers (addition to 1.0.0)",
      "x-kit-profile": true
    }
  ],
  "paths": {
    "/plants": {
      "post": {
        "operationId": "createPlant",
        "tags": [
          "plants"
        ],
        "summary": "Create a plant",
        "description": "Creates a new plant in the store.\n\nAddition to 1.0.0: the `id` must not already belong to one of the caller's plants (`409`),\nand the answer to a missing or invalid token (`401`), an oversized body (`413`) and a body\nthat is not JSON (`415`).\n",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPlant"
              },
              "examples": {
                "basil": {
                  "summary": "A new basil plant",
                  "value": {
                    "id": 1,
                    "name": "Basil",
                    "tag": "herb"
                  }
                },
                "untagged": {
                  "summary": "A plant without a tag",
                  "value": {
                    "id": 2,
                    "name": "Fern"
                  }
                },
                "missingName": {
                  "summary": "A plant without the required name",
                  "value": {
                    "id": 3,
                    "tag": "herb"
                  }
                },
                "idNotInteger": {
                  "summary": "An id that is a string, not an integer",
                  "value": {
                    "id": "4",
                    "name": "Mint"
                  }
                },
                "duplicate": {
                  "summary": "An id the caller already uses (addition)",
                  "x-given-plants": [
                    {
                      "id": 1,
                      "name": "Basil",
                      "tag": "herb"
                    }
                  ],
                  "value": {
                    "id": 1,
                    "name": "Rosemary",
                    "tag": "herb"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "plant response",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Plant"
                },
                "examples": {
                  "basil": {
                    "summary": "The basil plant as created",
                    "value": {
                      "name": "Basil",
                      "tag": "herb"
                    }
                  },
                  "untagged": {
                    "summary": "The fern as created",
                    "value": {
                      "name": "Fern"
                    }
                  }
                }
              }
            },
            "links": {
              "getPlant": {
                "operationId": "getPlant",
                "parameters": {
                  "id": "$request.body#/id"
                },
                "description": "Reads the plant just created, by the `id` the request body gave it (addition to\n1.0.0).\n"
              },
              "replacePlant": {
                "operationId": "replacePlant",
                "parameters": {
                  "id": "$request.body#/id"
                },
                "description": "Replaces the name and tag of the plant just created, by the `id` the request body\ngave it (addition to 1.0.0).\n"
              },
              "deletePlant": {
                "operationId": "deletePlant",
                "parameters": {
                  "id": "$request.body#/id"
                },
                "description": "Deletes the plant just created, by the `id` the request body gave it (addition to\n1.0.0).\n"
              }
            }
          },
          "400": {
            "description": "unexpected error",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "examples": {
                  "missingName": {
                    "summary": "The name is missing",
                    "value": {
                      "error": 400,
                      "message": "body must have required property 'name'"
                    }
                  },
                  "idNotInteger": {
                    "summary": "The id is not an integer",
                    "value": {
                      "error": 400,
                      "message": "body/id must be integer"
                    }
                  },
                  "blankBody": {
                    "x-kit-profile": true,
                    "summary": "An application/json body of whitespace only (addition)",
                    "value": {
                      "error": 400,
                      "message": "body must not be empty when the content type is application/json"
                    }
                  },
                  "nestedTooDeep": {
                    "x-kit-profile": true,
                    "summary": "A body whose arrays and objects lie 1001 levels within each other (addition)",
                    "value": {
                      "error": 400,
                      "message": "body is nested more than 1000 levels deep"
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "409": {
            "description": "A plant with this id already exists for this caller (addition to 1.0.0). Nothing is\nchanged.\n",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "examples": {
                  "duplicate": {
                    "summary": "The id 1 is taken",
                    "value": {
                      "error": 409,
                      "message": "plant 1 already exists"
                    }
                  }
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "431": {
            "$ref": "#/components/responses/RequestHeaderFieldsTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/InternalServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServiceUnavailable"
          },
          "507": {
            "$ref": "#/components/responses/InsufficientStorage"
          }
        }
      },
      "get": {
        "operationId": "listPlants",
        "tags": [
          "plants"
        ],
        "summary": "List plants",
        "description": "Lists the caller's plants in ascending order of id (addition to 1.0.0).\n\nA page holds at most `limit` plants. When more follow, the `Link` header gives the next\npage with `rel=\"next\"`; follow it as it is. Its target may be any URI reference RFC 8288\nallows (absolute, network-path, path-absolute, path-relative or query-only), resolved\nagainst the address of the request that got the page (RFC 8288 §3.2, RFC 3986 §5), as\n`new URL(target, requestUrl)` does. The kit's stores answer with a query-only reference,\n`<?limit=2&cursor=…>; rel=\"next\"`, which keeps the request's path: paging keeps working\nbehind a proxy or gateway that mounts the store under a path prefix the store does not\nknow. The cursor in it is opaque: it may change form between versions, and only the\nserver makes it.\n\n**Paging while plants change (addition to 1.0.0).** Each page starts after the last plant\nof the page before: it holds the caller's plants, as they are when that page is read, whose\nids are greater than the last id of the page before, the first `limit` of them in ascending\norder (and with `tag`, only those the filter keeps). So a plant created or deleted between\ntwo page reads changes only the pages still to come: no plant appears twice, and no plant\nthat stays in the store from the first page read to the last is skipped. A plant created\nmeanwhile shows on a later page when its id is greater than the last id already listed, and\na plant deleted before its page is read does not show.\n",
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "description": "The most plants to return in one page (addition to 1.0.0).",
            "required": false,
            "schema": {
              "type": "integer",
              "format": "int32",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            },
            "examples": {
              "firstPage": {
                "summary": "One plant a page",
                "x-given-plants": [
                  {
                    "id": 1,
                    "name": "Basil",
                    "tag": "herb"
                  },
                  {
                    "id": 2,
                    "name": "Fern"
                  }
                ],
                "value": 1
              },
              "limitTooSmall": {
                "summary": "A limit below 1",
                "value": 0
              },
              "limitTooLarge": {
                "summary": "A limit above 100, the most a page holds",
                "value": 101
              }
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "description": "Where the page starts: copy it from the `Link` header of the page before\n(addition to 1.0.0). A store makes its cursors at most 1024 characters long.\n\nA cursor is good only for the principal whose page gave it (addition to 1.0.0):\nanother principal's request with it, as the `Link` target or in a list request of its\nown, mid-listing or once that listing has ended, is answered `400` as a cursor the\nserver did not make, never with a page, so that the answer tells nothing of the first\nprincipal's plants.\n",
            "required": false,
            "schema": {
              "type": "string",
              "maxLength": 1024
            },
            "examples": {
              "badCursor": {
                "summary": "A cursor the server did not make",
                "value": "not-a-cursor"
              }
            }
          },
          {
            "name": "tag",
            "in": "query",
            "description": "Only plants with exactly this tag (addition to 1.0.0); at most 64 characters, as a\nplant's tag. Exactly: the same characters, compared as they are, so letter case,\nsurrounding spaces and the Unicode form of the same text (`é` as one character, or as\n`e` and a combining accent) all make another tag, and so does a prefix of a tag.\n",
            "required": false,
            "schema": {
              "type": "string",
              "maxLength": 64
            },
            "examples": {
              "herbs": {
                "summary": "Only the herbs",
                "x-given-plants": [
                  {
                    "id": 1,
                    "name": "Basil",
                    "tag": "herb"
                  },
                  {
                    "id": 2,
                    "name": "Fern"
                  },
                  {
                    "id": 3,
                    "name": "Mint",
                    "tag": "herb"
                  }
                ],
                "value": "herb"
              }
            }
          }
        ],
        "responses": {
          "200": {
            "description": "A page of the caller's plants (addition to 1.0.0).",
            "headers": {
              "Link": {
                "$ref": "#/components/headers/Link"
              },
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "maxItems": 100,
                  "items": {
                    "$ref": "#/components/schemas/StoredPlant"
                  }
                },
                "examples": {
                  "herbs": {
                    "summary": "The caller's herbs",
                    "value": [
                      {
                        "id": 1,
                        "name": "Basil",
                        "tag": "herb"
                      },
                      {
                        "id": 3,
                        "name": "Mint",
                        "tag": "herb"
                      }
                    ]
                  },
                  "firstPage": {
                    "summary": "The first of two pages",
                    "value": [
                      {
                        "id": 1,
                        "name": "Basil",
                        "tag": "herb"
                      }
                    ]
                  }
                }
              }
            }
          },
          "400": {
            "description": "The limit or the cursor is not valid (addition to 1.0.0).",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "examples": {
                  "limitTooSmall": {
                    "summary": "The limit is below 1",
                    "value": {
                      "error": 400,
                      "message": "querystring/limit must be >= 1"
                    }
                  },
                  "limitTooLarge": {
                    "summary": "The limit is above 100",
                    "value": {
                      "error": 400,
                      "message": "querystring/limit must be <= 100"
                    }
                  },
                  "badCursor": {
                    "summary": "The cursor was not made by the server",
                    "value": {
                      "error": 400,
                      "message": "querystring/cursor is not a cursor this server made"
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "431": {
            "$ref": "#/components/responses/RequestHeaderFieldsTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/InternalServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServiceUnavailable"
          }
        }
      }
    },
    "/plants/{id}": {
      "parameters": [
        {
          "$ref": "#/components/parameters/PlantId"
        }
      ],
      "get": {
        "operationId": "getPlant",
        "tags": [
          "plants"
        ],
        "summary": "Read a plant",
        "description": "Reads one of the caller's plants (addition to 1.0.0).",
        "responses": {
          "200": {
            "description": "The plant.",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/StoredPlant"
                },
                "examples": {
                  "basil": {
                    "summary": "The basil plant",
                    "value": {
                      "id": 1,
                      "name": "Basil",
                      "tag": "herb"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadPlantId"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "414": {
            "$ref": "#/components/responses/UriTooLong"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "431": {
            "$ref": "#/components/responses/RequestHeaderFieldsTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/InternalServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServiceUnavailable"
          }
        }
      },
      "put": {
        "operationId": "replacePlant",
        "tags": [
          "plants"
        ],
        "summary": "Replace a plant",
        "description": "Replaces the name and tag of one of the caller's plants; a tag left out is removed\n(addition to 1.0.0). The plant must exist: create it with `createPlant`.\n",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/Plant"
              },
              "examples": {
                "basil": {
                  "summary": "Basil renamed",
                  "value": {
                    "name": "Thai basil",
                    "tag": "herb"
                  }
                },
                "notFound": {
                  "summary": "A plant that does not exist",
                  "value": {
                    "name": "Thai basil"
                  }
                },
                "missingName": {
                  "summary": "A plant without the required name",
                  "value": {
                    "tag": "herb"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The plant as it is now stored.",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/StoredPlant"
                },
                "examples": {
                  "basil": {
                    "summary": "The renamed basil",
                    "value": {
                      "id": 1,
                      "name": "Thai basil",
                      "tag": "herb"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "description": "The id or the body is not valid (addition to 1.0.0).",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "examples": {
                  "missingName": {
                    "summary": "The name is missing",
                    "value": {
                      "error": 400,
                      "message": "body must have required property 'name'"
                    }
                  },
                  "idNotInteger": {
                    "$ref": "#/components/examples/idNotInteger"
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "414": {
            "$ref": "#/components/responses/UriTooLong"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "431": {
            "$ref": "#/components/responses/RequestHeaderFieldsTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/InternalServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServiceUnavailable"
          },
          "507": {
            "$ref": "#/components/responses/InsufficientStorage"
          }
        }
      },
      "delete": {
        "operationId": "deletePlant",
        "tags": [
          "plants"
        ],
        "summary": "Delete a plant",
        "description": "Deletes one of the caller's plants (addition to 1.0.0).",
        "responses": {
          "204": {
            "description": "The plant is deleted.",
            "headers": {
              "RateLimit-Policy": {
                "$ref": "#/components/headers/RateLimit-Policy"
              },
              "RateLimit": {
                "$ref": "#/components/headers/RateLimit"
              }
            },
            "x-example-names": [
              "basil"
            ]
          },
          "400": {
            "$ref": "#/components/responses/BadPlantId"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "414": {
            "$ref": "#/components/responses/UriTooLong"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "431": {
            "$ref": "#/components/responses/RequestHeaderFieldsTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/InternalServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServiceUnavailable"
          },
          "507": {
            "$ref": "#/components/responses/InsufficientStorage"
          }
        }
      }
    },
    "/healthz": {
      "get": {
        "x-kit-profile": true,
        "operationId": "getHealth",
        "tags": [
          "health"
        ],
        "summary": "Liveness",
        "description": "`200` while the process runs and answers HTTP, whatever the state of the store: an\ninstance that fails this should be restarted. No token is needed (addition to 1.0.0).\n",
        "security": [],
        "responses": {
          "200": {
            "$ref": "#/components/responses/StatusOk"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "431": {
            "$ref": "#/components/responses/RequestHeaderFieldsTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/InternalServerError"
          }
        }
      }
    },
    "/readyz": {
      "get": {
        "x-kit-profile": true,
        "operationId": "getReadiness",
        "tags": [
          "health"
        ],
        "summary": "Readiness",
        "description": "`200` when the store answers a trivial query within 1 second, `503` otherwise: a load\nbalancer sends requests only to instances that answer `200`. No token is needed\n(addition to 1.0.0).\n",
        "security": [],
        "responses": {
          "200": {
            "$ref": "#/components/responses/StatusOk"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "431": {
            "$ref": "#/components/responses/RequestHeaderFieldsTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/InternalServerError"
          },
          "503": {
            "description": "The store did not answer in time (a database restarting or out of reach); the instance\nitself is alive, and answers `200` again by itself once the store does (addition to 1.0.0).\n",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/Retry-After"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                },
                "examples": {
                  "storeUnavailable": {
                    "summary": "The store does not answer",
                    "value": {
                      "error": 503,
                      "message": "the store is not answering"
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  "webhooks": {
    "newPlant": {
      "post": {
        "operationId": "newPlant",
        "tags": [
          "plants"
        ],
        "summary": "A new plant",
        "description": "Announces a plant just created: the store sends the plant, `id` included, to the URL whoever\nruns the store gave for the plant's owner, signed with a secret shared with the receiver\n(addition to 1.0.0).\n\n**Which creates send one.** Each `createPlant` answered `200` sends exactly one event, and\na refused one (`4xx`, `5xx`) none: the event is stored in the same transaction as the plant.\nReplacing or deleting a plant sends nothing. While too many events wait for delivery, a\ncreate is refused with `503` and `Retry-After`, so that no plant is created without its\nevent.\n\n**Delivery.** At least once: a receiver may get an event twice, and should do nothing the\nsecond time. `webhook-id` names the event and is the same on every attempt to deliver it,\nso it is the key for that. Any `2xx` answer ends the delivery; any other status, a\nredirect (redirects are not followed), no answer within 10 seconds or a refused connection\nis a failed attempt, retried with exponential backoff and jitter: the first retry within\n5 seconds, each wait about twice the last, at most 1 hour; after 15 attempts in all\n(about 2¾ to 5½ hours after the first) the event is kept as failed and logged, and not sent\nagain; whoever runs the store may set other numbers. Events are not ordered: a retried event\nmay arrive after a later one.\n\n**Signature (Standard Webhooks).** Every attempt carries `webhook-id`, `webhook-timestamp`\n(when the attempt was signed, in seconds since the epoch) and `webhook-signature`:\n`v1,<base64 of HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<body>\">`, keyed with the\nbytes of the shared secret, which is written `whsec_<base64>`. While a secret is being\nrotated the header holds one signature per secret, separated by spaces; a receiver accepts\nthe event when any of them verifies. A receiver should verify the signature over the body\nexactly as received, before parsing it, and refuse a timestamp more than 5 minutes away\nfrom its clock. The body's `id` is an int64: read it without rounding.\n",
        "security": [],
        "parameters": [
          {
            "name": "webhook-id",
            "in": "header",
            "required": true,
            "description": "The event's id, the same on every attempt to deliver it.",
            "schema": {
              "type": "string",
              "maxLength": 64,
              "pattern": "^msg_[A-Za-z0-9_-]+$"
            },
            "example": "msg_2b5c2c1e-6f3a-4e0b-9d54-0c8f6e0c9a11"
          },
          {
            "name": "webhook-timestamp",
            "in": "header",
            "required": true,
            "description": "When this attempt was signed, in whole seconds since 1970-01-01T00:00:00Z.",
            "schema": {
              "type": "string",
              "maxLength": 20,
              "pattern": "^[0-9]+$"
            },
            "example": "1767225600"
          },
          {
            "name": "webhook-signature",
            "in": "header",
            "required": true,
            "description": "One or more `v1,<base64 HMAC-SHA256>` signatures, separated by spaces: one for each secret\nthe server signs with.\n",
            "schema": {
              "type": "string",
              "maxLength": 1024,
              "pattern": "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$"
            },
            "example": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The plant as created.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/StoredPlant"
              },
              "examples": {
                "basil": {
                  "summary": "The basil plant just created",
                  "value": {
                    "id": 1,
                    "name": "Basil",
                    "tag": "herb"
                  }
                },
                "untagged": {
                  "summary": "A plant created without a tag",
                  "value": {
                    "id": 2,
                    "name": "Fern"
                  }
                },
                "largeId": {
                  "summary": "An id beyond 2^53, to be read as an int64, not a double",
                  "value": {
                    "id": 1000000000000000000,
                    "name": "Rosemary",
                    "tag": "herb"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The receiver has the event. Any other `2xx` ends the delivery as well; anything else is\nretried as the description says.\n"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <ACCESS_TOKEN>`, in that header only: a token in the query string\nor a cookie is not read. Each token belongs to one principal; how tokens are issued is the\nstore's to choose (addition to 1.0.0).\n"
      }
    },
    "parameters": {
      "PlantId": {
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The plant's id, any int64, in decimal digits with an optional minus sign and no leading\nzeros or plus sign (addition to 1.0.0).\n",
        "schema": {
          "type": "integer",
          "format": "int64"
        },
        "examples": {
          "basil": {
            "summary": "A plant the caller owns",
            "x-given-plants": [
              {
                "id": 1,
                "name": "Basil",
                "tag": "herb"
              }
            ],
            "value": 1
          },
          "notFound": {
            "summary": "An id the caller has no plant with",
            "value": 404
          },
          "idNotInteger": {
            "summary": "An id that is not an integer",
            "value": "abc"
          }
        }
      }
    },
    "headers": {
      "Allow": {
        "x-kit-profile": true,
        "description": "The methods the path takes, separated by commas, on every 405 (addition to 1.0.0).\n",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^[A-Z]+(, [A-Z]+)*$",
          "maxLength": 64
        },
        "example": "GET, POST"
      },
      "Accept-Encoding": {
        "x-kit-profile": true,
        "description": "The content codings a request body may be in: `identity` alone, on a `415` for a body in\nanother (addition to 1.0.0).\n",
        "schema": {
          "type": "string",
          "const": "identity"
        },
        "example": "identity"
      },
      "RateLimit-Policy": {
        "x-kit-profile": true,
        "description": "The quota policy the request was counted against, a structured field of the IETF draft\n\"RateLimit header fields for HTTP\": the policy's name, then `q` the requests a window\nallows and `w` the window in seconds. `\"default\"` is the principal's quota,\n`\"failed-auth\"` the address's for requests with a missing or unknown token. On every\nanswer counted against a limit; an answer given before the request is counted (an\noverloaded or shutting-down server's `503`) has none (addition to 1.0.0).\n",
        "schema": {
          "type": "string",
          "pattern": "^\"(default|failed-auth)\";q=[0-9]+;w=[0-9]+$"
        },
        "example": "\"default\";q=1000;w=60"
      },
      "RateLimit": {
        "x-kit-profile": true,
        "description": "Where the request left its quota policy, a structured field of the same IETF draft: the\npolicy's name, then `r` the requests left in the window and `t` the seconds until the\nquota is whole again (on a `429`, `r=0` and `t` equal to `Retry-After`). Present whenever\n`RateLimit-Policy` is (addition to 1.0.0).\n",
        "schema": {
          "type": "string",
          "pattern": "^\"(default|failed-auth)\";r=[0-9]+;t=[0-9]+$"
        },
        "example": "\"default\";r=998;t=42"
      },
      "Link": {
        "description": "`<target of the next page>; rel=\"next\"`, present when more plants follow\n(addition to 1.0.0). The target is any URI reference RFC 8288 allows: absolute\n(`https://store.example/plants?cursor=MQ`), network-path, path-absolute\n(`/plants?cursor=MQ`), path-relative (`plants?cursor=MQ`) or query-only\n(`?cursor=MQ`). A client resolves it against the address of the request that got the\npage (RFC 8288 §3.2, RFC 3986 §5), never against a base URL of its own. The kit's stores\nanswer with a query-only reference, so that a proxy that mounts the store under a\nprefix (`/api/plants` → `/plants`) keeps paging working.\n",
        "schema": {
          "type": "string",
          "pattern": "^<[^>]+>; rel=\"next\"$"
        },
        "example": "<?limit=1&cursor=MQ>; rel=\"next\""
      },
      "Retry-After": {
        "description": "Seconds to wait before trying again, on every 429 and 503 (addition to 1.0.0).",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^[0-9]+$"
        },
        "example": "5"
      },
      "WWW-Authenticate": {
        "description": "The bearer challenge (RFC 6750), on every 401 (addition to 1.0.0).",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^Bearer"
        },
        "example": "Bearer realm=\"plant-store\""
      }
    },
    "examples": {
      "idNotInteger": {
        "summary": "The id is not an integer",
        "value": {
          "error": 400,
          "message": "params/id must be integer"
        }
      },
      "notHttp": {
        "x-kit-profile": true,
        "summary": "A request that cannot be parsed (a method that is not a token, a version that is none)",
        "description": "The kit's server's `400` to a request it cannot parse (addition to 1.0.0).",
        "value": {
          "error": 400,
          "message": "the request is not valid HTTP"
        }
      },
      "methodNotImplemented": {
        "x-kit-profile": true,
        "summary": "The method FOO, which the server does not know",
        "description": "The kit's server's `501` to a method it does not know (addition to 1.0.0).",
        "value": {
          "error": 501,
          "message": "the method FOO is not implemented"
        }
      },
      "transferEncodingUnframed": {
        "x-kit-profile": true,
        "summary": "A Transfer-Encoding that does not end in chunked, or comes with Content-Length",
        "description": "The kit's server's `400` to a body whose length its `Transfer-Encoding` does not give: one that\ndoes not end in `chunked`, names it twice, or follows a `Content-Length` (addition to 1.0.0).\n",
        "value": {
          "error": 400,
          "message": "the length of the body cannot be known: Transfer-Encoding must end in chunked, name it once and come without Content-Length"
        }
      },
      "contentLengthTwice": {
        "x-kit-profile": true,
        "summary": "Two Content-Length values",
        "description": "The kit's server's `400` to a request with two `Content-Length` values (addition to 1.0.0).",
        "value": {
          "error": 400,
          "message": "the length of the body cannot be known: Content-Length must be given once, and not with Transfer-Encoding"
        }
      },
      "contentLengthNotNumber": {
        "x-kit-profile": true,
        "summary": "A Content-Length that is not a number",
        "description": "The kit's server's `400` to a `Content-Length` that is not a number (addition to 1.0.0).",
        "value": {
          "error": 400,
          "message": "the length of the body cannot be known: Content-Length must be one number of bytes"
        }
      },
      "chunkExtensionsTooLarge": {
        "x-kit-profile": true,
        "summary": "A chunked body whose chunk extensions are over 16384 bytes",
        "description": "The kit's server's `413` to a chunked body whose chunk extensions take more than 16384 bytes,\nits HTTP parser's own limit, whatever the other limits (addition to 1.0.0).\n",
        "value": {
          "error": 413,
          "message": "the chunk extensions of the body are larger than 16384 bytes"
        }
      }
    },
    "responses": {
      "MethodNotAllowed": {
        "x-kit-profile": true,
        "description": "The operation's path does not take the method the request used; `Allow` lists the methods\nit takes (addition to 1.0.0). Answered before the request is counted against a limit.\n",
        "headers": {
          "Allow": {
            "$ref": "#/components/headers/Allow"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "methodNotAllowed": {
                "summary": "PATCH, which no path takes",
                "value": {
                  "error": 405,
                  "message": "method PATCH is not allowed on this path; Allow lists those it takes"
                }
              }
            }
          }
        }
      },
      "RequestTimeout": {
        "x-body-optional": true,
        "description": "The client did not send its headers, or its whole request, in time; the connection is\nclosed. A layer in front of the store may answer it without a body (addition to 1.0.0).\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "requestTimeout": {
                "x-kit-profile": true,
                "summary": "A request that stopped arriving",
                "value": {
                  "error": 408,
                  "message": "the request did not arrive in time"
                }
              }
            }
          }
        }
      },
      "UriTooLong": {
        "x-body-optional": true,
        "description": "The request's URI is longer than the store takes (every store takes 8000 bytes of request\nline and headers); the kit's server refuses a path segment over 100 characters. A layer in\nfront of the store may answer it without a body (addition to 1.0.0).\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "pathSegmentTooLong": {
                "x-kit-profile": true,
                "summary": "An id of 101 characters",
                "value": {
                  "error": 414,
                  "message": "a path segment is longer than 100 characters"
                }
              }
            }
          }
        }
      },
      "RequestHeaderFieldsTooLarge": {
        "x-body-optional": true,
        "description": "The request line and headers together are larger than the store takes (every store takes\n8000 bytes; the kit's server 16384). A layer in front of the store may answer it without a\nbody (addition to 1.0.0).\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "headersTooLarge": {
                "x-kit-profile": true,
                "summary": "Headers over the limit",
                "value": {
                  "error": 431,
                  "message": "the request line and headers are larger than 16384 bytes"
                }
              }
            }
          }
        }
      },
      "InternalServerError": {
        "description": "The store failed. Whether anything was changed is not known: read before retrying a change\n(addition to 1.0.0).\n",
        "headers": {
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "internalError": {
                "summary": "A failure inside the server",
                "value": {
                  "error": 500,
                  "message": "internal server error"
                }
              }
            }
          }
        }
      },
      "StatusOk": {
        "x-kit-profile": true,
        "description": "The instance is live, or ready (addition to 1.0.0).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Status"
            },
            "examples": {
              "ok": {
                "summary": "All is well",
                "value": {
                  "status": "ok"
                }
              }
            }
          }
        }
      },
      "BadPlantId": {
        "description": "The id is not an int64 (addition to 1.0.0).",
        "headers": {
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "idNotInteger": {
                "$ref": "#/components/examples/idNotInteger"
              }
            }
          }
        }
      },
      "Unauthorized": {
        "description": "The bearer token is missing, malformed or not known (addition to 1.0.0). The message may\nsay why (the kit's server: an expired JSON Web Token, another issuer, …).\n",
        "headers": {
          "WWW-Authenticate": {
            "$ref": "#/components/headers/WWW-Authenticate"
          },
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "missingToken": {
                "summary": "No Authorization header",
                "value": {
                  "error": 401,
                  "message": "a bearer token is required"
                }
              },
              "invalidToken": {
                "summary": "A token the server does not know",
                "value": {
                  "error": 401,
                  "message": "the bearer token is not valid"
                }
              }
            }
          }
        }
      },
      "TooManyRequests": {
        "description": "The caller has made more requests than its limit allows in the current window, or its\naddress has failed authentication too often (addition to 1.0.0). `Retry-After` says in how\nmany seconds to try again.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          },
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "tooManyRequests": {
                "summary": "The principal's requests for this window are spent",
                "value": {
                  "error": 429,
                  "message": "too many requests from this principal; try again after Retry-After seconds"
                }
              },
              "tooManyFailedAuthentications": {
                "x-kit-profile": true,
                "summary": "The address's requests with a missing or unknown token for this window are spent",
                "value": {
                  "error": 429,
                  "message": "too many failed authentications from this address; try again after Retry-After seconds"
                }
              }
            }
          }
        }
      },
      "NotFound": {
        "description": "The caller has no plant with this id (addition to 1.0.0).",
        "headers": {
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "notFound": {
                "summary": "No plant 404",
                "value": {
                  "error": 404,
                  "message": "plant 404 not found"
                }
              }
            }
          }
        }
      },
      "PayloadTooLarge": {
        "x-body-optional": true,
        "description": "The request body is larger than the store takes (every store takes 65536 bytes; the kit's\nserver no more). A layer in front of the store may answer it without a body (addition to\n1.0.0).\n",
        "headers": {
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "tooLarge": {
                "x-kit-profile": true,
                "summary": "A body over the limit",
                "value": {
                  "error": 413,
                  "message": "the body is larger than 65536 bytes"
                }
              },
              "tooLargeNotJson": {
                "x-kit-profile": true,
                "summary": "A text/plain body over the limit, which is measured before its type is read",
                "value": {
                  "error": 413,
                  "message": "the body is larger than 65536 bytes"
                }
              }
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The request body is not `application/json` (addition to 1.0.0). The kit's server also\nrefuses a body in a content coding, naming `identity` in `Accept-Encoding`.\n",
        "headers": {
          "Accept-Encoding": {
            "$ref": "#/components/headers/Accept-Encoding"
          },
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "notJson": {
                "summary": "A text/plain body",
                "value": {
                  "error": 415,
                  "message": "the body must be application/json, not text/plain"
                }
              },
              "notAMediaType": {
                "x-kit-profile": true,
                "summary": "A Content-Type that is no media type at all (no subtype)",
                "value": {
                  "error": 415,
                  "message": "the body must be application/json, not plain"
                }
              },
              "noContentType": {
                "x-kit-profile": true,
                "summary": "A body sent without a Content-Type",
                "value": {
                  "error": 415,
                  "message": "the body must be application/json, not without a content type"
                }
              }
            }
          }
        }
      },
      "ServiceUnavailable": {
        "description": "The store cannot serve for now (overloaded, its storage unreachable or read-only); nothing\nwas changed. Try again after `Retry-After` seconds (addition to 1.0.0).\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          },
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "overloaded": {
                "summary": "The server is overloaded",
                "value": {
                  "error": 503,
                  "message": "the server is overloaded: try again later"
                }
              }
            }
          }
        }
      },
      "InsufficientStorage": {
        "x-kit-profile": true,
        "description": "The store is full; nothing was changed, and reads keep working. Writes succeed again once\nspace is freed, deleting plants included (addition to 1.0.0).\n",
        "headers": {
          "RateLimit-Policy": {
            "$ref": "#/components/headers/RateLimit-Policy"
          },
          "RateLimit": {
            "$ref": "#/components/headers/RateLimit"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "storeFull": {
                "summary": "The store has no room for the change",
                "value": {
                  "error": 507,
                  "message": "the store is full: nothing was changed; reads still work"
                }
              }
            }
          }
        }
      }
    },
    "schemas": {
      "Plant": {
        "type": "object",
        "required": [
          "name"
        ],
        "properties": {
          "name": {
            "description": "The name of the plant (its bound, 256 characters, is an addition to 1.0.0)\n",
            "type": "string",
            "maxLength": 256
          },
          "tag": {
            "description": "Tag to specify the type (its bound, 64 characters, is an addition to 1.0.0)\n",
            "type": "string",
            "maxLength": 64
          }
        }
      },
      "NewPlant": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Plant"
          },
          {
            "required": [
              "id"
            ],
            "properties": {
              "id": {
                "description": "Identification number of the plant",
                "type": "integer",
                "format": "int64"
              }
            }
          }
        ]
      },
      "StoredPlant": {
        "description": "A plant as the store keeps it: the fields of `NewPlant` (addition to 1.0.0).\n",
        "allOf": [
          {
            "$ref": "#/components/schemas/NewPlant"
          }
        ]
      },
      "Status": {
        "x-kit-profile": true,
        "description": "What a liveness or readiness check found (addition to 1.0.0).",
        "type": "object",
        "required": [
          "status"
        ],
        "properties": {
          "status": {
            "const": "ok"
          }
        }
      },
      "Error": {
        "type": "object",
        "required": [
          "error",
          "message"
        ],
        "properties": {
          "error": {
            "description": "The answer's HTTP status code (its bounds, 400 to 599, are an addition to 1.0.0).",
            "type": "integer",
            "format": "int32",
            "minimum": 400,
            "maximum": 599
          },
          "message": {
            "type": "string"
          }
        }
      }
    }
  }
} as unknown as Document
