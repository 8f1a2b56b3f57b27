// Generated from spec/openapi.yaml by `npm run generate`. Do not edit.

import type { Document } from '../document.js'

/** The document without its prose (descriptions, summaries): what the in-process handlers serve. */
export const handlerDocument = {
  "openapi": "3.1.0",
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "paths": {
    "/plants": {
      "post": {
        "operationId": "createPlant",
        "tags": [
          "plants"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPlant"
              },
              "examples": {
                "basil": {
                  "value": {
                    "id": 1,
                    "name": "Basil",
                    "tag": "herb"
                  }
                },
                "untagged": {
                  "value": {
                    "id": 2,
                    "name": "Fern"
                  }
                },
                "missingName": {
                  "value": {
                    "id": 3,
                    "tag": "herb"
                  }
                },
                "idNotInteger": {
                  "value": {
                    "id": "4",
                    "name": "Mint"
                  }
                },
                "duplicate": {
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
                    "value": {
                      "name": "Basil",
                      "tag": "herb"
                    }
                  },
                  "untagged": {
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
                }
              },
              "replacePlant": {
                "operationId": "replacePlant",
                "parameters": {
                  "id": "$request.body#/id"
                }
              },
              "deletePlant": {
                "operationId": "deletePlant",
                "parameters": {
                  "id": "$request.body#/id"
                }
              }
            }
          },
          "400": {
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
                    "value": {
                      "error": 400,
                      "message": "body must have required property 'name'"
                    }
                  },
                  "idNotInteger": {
                    "value": {
                      "error": 400,
                      "message": "body/id must be integer"
                    }
                  },
                  "blankBody": {
                    "x-kit-profile": true,
                    "value": {
                      "error": 400,
                      "message": "body must not be empty when the content type is application/json"
                    }
                  },
                  "nestedTooDeep": {
                    "x-kit-profile": true,
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
        "parameters": [
          {
            "name": "limit",
            "in": "query",
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
                "value": 0
              },
              "limitTooLarge": {
                "value": 101
              }
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "maxLength": 1024
            },
            "examples": {
              "badCursor": {
                "value": "not-a-cursor"
              }
            }
          },
          {
            "name": "tag",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string",
              "maxLength": 64
            },
            "examples": {
              "herbs": {
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
                    "value": {
                      "error": 400,
                      "message": "querystring/limit must be >= 1"
                    }
                  },
                  "limitTooLarge": {
                    "value": {
                      "error": 400,
                      "message": "querystring/limit must be <= 100"
                    }
                  },
                  "badCursor": {
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
        "responses": {
          "200": {
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
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/Plant"
              },
              "examples": {
                "basil": {
                  "value": {
                    "name": "Thai basil",
                    "tag": "herb"
                  }
                },
                "notFound": {
                  "value": {
                    "name": "Thai basil"
                  }
                },
                "missingName": {
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
        "responses": {
          "204": {
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
        "security": [],
        "parameters": [
          {
            "name": "webhook-id",
            "in": "header",
            "required": true,
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
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/StoredPlant"
              },
              "examples": {
                "basil": {
                  "value": {
                    "id": 1,
                    "name": "Basil",
                    "tag": "herb"
                  }
                },
                "untagged": {
                  "value": {
                    "id": 2,
                    "name": "Fern"
                  }
                },
                "largeId": {
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
          "200": {}
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer"
      }
    },
    "parameters": {
      "PlantId": {
        "name": "id",
        "in": "path",
        "required": true,
        "schema": {
          "type": "integer",
          "format": "int64"
        },
        "examples": {
          "basil": {
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
            "value": 404
          },
          "idNotInteger": {
            "value": "abc"
          }
        }
      }
    },
    "headers": {
      "Allow": {
        "x-kit-profile": true,
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
        "schema": {
          "type": "string",
          "const": "identity"
        },
        "example": "identity"
      },
      "RateLimit-Policy": {
        "x-kit-profile": true,
        "schema": {
          "type": "string",
          "pattern": "^\"(default|failed-auth)\";q=[0-9]+;w=[0-9]+$"
        },
        "example": "\"default\";q=1000;w=60"
      },
      "RateLimit": {
        "x-kit-profile": true,
        "schema": {
          "type": "string",
          "pattern": "^\"(default|failed-auth)\";r=[0-9]+;t=[0-9]+$"
        },
        "example": "\"default\";r=998;t=42"
      },
      "Link": {
        "schema": {
          "type": "string",
          "pattern": "^<[^>]+>; rel=\"next\"$"
        },
        "example": "<?limit=1&cursor=MQ>; rel=\"next\""
      },
      "Retry-After": {
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^[0-9]+$"
        },
        "example": "5"
      },
      "WWW-Authenticate": {
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
        "value": {
          "error": 400,
          "message": "params/id must be integer"
        }
      },
      "notHttp": {
        "x-kit-profile": true,
        "value": {
          "error": 400,
          "message": "the request is not valid HTTP"
        }
      },
      "methodNotImplemented": {
        "x-kit-profile": true,
        "value": {
          "error": 501,
          "message": "the method FOO is not implemented"
        }
      },
      "transferEncodingUnframed": {
        "x-kit-profile": true,
        "value": {
          "error": 400,
          "message": "the length of the body cannot be known: Transfer-Encoding must end in chunked, name it once and come without Content-Length"
        }
      },
      "contentLengthTwice": {
        "x-kit-profile": true,
        "value": {
          "error": 400,
          "message": "the length of the body cannot be known: Content-Length must be given once, and not with Transfer-Encoding"
        }
      },
      "contentLengthNotNumber": {
        "x-kit-profile": true,
        "value": {
          "error": 400,
          "message": "the length of the body cannot be known: Content-Length must be one number of bytes"
        }
      },
      "chunkExtensionsTooLarge": {
        "x-kit-profile": true,
        "value": {
          "error": 413,
          "message": "the chunk extensions of the body are larger than 16384 bytes"
        }
      }
    },
    "responses": {
      "MethodNotAllowed": {
        "x-kit-profile": true,
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
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "requestTimeout": {
                "x-kit-profile": true,
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
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "pathSegmentTooLong": {
                "x-kit-profile": true,
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
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            },
            "examples": {
              "headersTooLarge": {
                "x-kit-profile": true,
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
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Status"
            },
            "examples": {
              "ok": {
                "value": {
                  "status": "ok"
                }
              }
            }
          }
        }
      },
      "BadPlantId": {
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
                "value": {
                  "error": 401,
                  "message": "a bearer token is required"
                }
              },
              "invalidToken": {
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
                "value": {
                  "error": 429,
                  "message": "too many requests from this principal; try again after Retry-After seconds"
                }
              },
              "tooManyFailedAuthentications": {
                "x-kit-profile": true,
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
                "value": {
                  "error": 413,
                  "message": "the body is larger than 65536 bytes"
                }
              },
              "tooLargeNotJson": {
                "x-kit-profile": true,
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
                "value": {
                  "error": 415,
                  "message": "the body must be application/json, not text/plain"
                }
              },
              "notAMediaType": {
                "x-kit-profile": true,
                "value": {
                  "error": 415,
                  "message": "the body must be application/json, not plain"
                }
              },
              "noContentType": {
                "x-kit-profile": true,
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
            "type": "string",
            "maxLength": 256
          },
          "tag": {
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
                "type": "integer",
                "format": "int64"
              }
            }
          }
        ]
      },
      "StoredPlant": {
        "allOf": [
          {
            "$ref": "#/components/schemas/NewPlant"
          }
        ]
      },
      "Status": {
        "x-kit-profile": true,
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
  },
  "info": {
    "title": "Plant Store",
    "version": "1.0.0"
  }
} as unknown as Document
