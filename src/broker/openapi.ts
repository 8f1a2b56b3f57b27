// The broker's own interface as an OpenAPI 3.1 document, served at /openapi.json and /docs.

const error = {
  description: 'The request was refused; the message says why.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
}
const refusals = {
  '400': error,
  '401': { ...error, description: "No token, or not one of this broker's." },
  '404': { ...error, description: 'An unknown application, version, environment or content.' },
}
const json = (schema: object, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
})
const object = { type: 'object' }
const name = (where: 'path' | 'query', n: string, description: string) => ({
  name: n,
  in: where,
  required: true,
  description,
  schema: { type: 'string', minLength: 1, maxLength: 200 },
})
const appVersion = [
  name('path', 'application', 'The application (a consumer, or the store).'),
  name('path', 'version', 'Its version: a commit id.'),
]
const branch = { ...name('query', 'branch', 'The branch the version was built from.') }
const placement = {
  required: true,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Placement' } } },
}
const read = [{ readToken: [] }]
const write = [{ writeToken: [] }]

/** A version's publish, a contract's or a document's alike: the same answers, the content told apart by the path. */
const publish = (operationId: string, summary: string) => ({
  operationId,
  summary,
  security: write,
  parameters: [...appVersion, branch],
  requestBody: { required: true, content: { 'application/json': { schema: object } } },
  responses: {
    '200': json(object, 'Published before with this content and branch: nothing changed.'),
    '201': json(object, 'Published.'),
    '409': {
      ...error,
      description: 'Published before with other content or branch; the message names the difference.',
    },
    '413': error,
    ...refusals,
  },
})

export const brokerDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Plant Store contract broker',
    version: '1.0.0',
    description:
      "Keeps consumer contracts, the store's documents, verifications, deployments and releases, and answers can-i-deploy from them.",
    license: { name: 'MIT', identifier: 'MIT' },
  },
  security: read,
  paths: {
    '/applications': {
      get: {
        operationId: 'listApplications',
        summary: 'Every application',
        responses: { '200': json({ type: 'array', items: object }), ...refusals },
      },
    },
    '/applications/{application}': {
      get: {
        operationId: 'getApplication',
        parameters: [appVersion[0]],
        responses: { '200': json(object), ...refusals },
      },
    },
    '/applications/{application}/versions/{version}': {
      get: {
        operationId: 'getVersion',
        parameters: appVersion,
        responses: { '200': json(object), ...refusals },
      },
    },
    '/applications/{application}/versions/{version}/contract': {
      put: publish('publishContract', "Publish a consumer version's contract (the file its tests recorded)"),
    },
    '/applications/{application}/versions/{version}/document': {
      put: publish('publishDocument', 'Publish the document a store version serves'),
    },
    '/applications/{application}/versions/{version}/verifications': {
      post: {
        operationId: 'recordVerification',
        summary: 'Record a verification: the report of plant-store-verify --json against this store version',
        security: write,
        parameters: appVersion,
        requestBody: { required: true, content: { 'application/json': { schema: object } } },
        responses: { '201': json(object), '413': error, ...refusals },
      },
    },
    '/applications/{application}/versions/{version}/verifications/{id}': {
      get: {
        operationId: 'getVerification',
        summary: 'One verification, with the coverage and promises of its report',
        parameters: [...appVersion, { name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': json(object), ...refusals },
      },
    },
    '/contents/{hash}': {
      get: {
        operationId: 'getContent',
        summary: 'A stored contract or document, by its SHA-256',
        parameters: [name('path', 'hash', 'The SHA-256 of its canonical text.')],
        responses: { '200': json(object), ...refusals },
      },
    },
    '/environments': {
      get: {
        operationId: 'listEnvironments',
        responses: { '200': json({ type: 'array', items: object }), ...refusals },
      },
    },
    '/environments/{environment}': {
      put: {
        operationId: 'putEnvironment',
        security: write,
        parameters: [name('path', 'environment', 'Its name.')],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['production'],
                properties: { production: { type: 'boolean' } },
              },
            },
          },
        },
        responses: { '200': json(object), '201': json(object), ...refusals },
      },
    },
    '/deployments': {
      post: {
        operationId: 'recordDeployment',
        summary: 'A version deployed: it replaces the one deployed there before',
        security: write,
        requestBody: placement,
        responses: { '201': json(object), ...refusals },
      },
    },
    '/releases': {
      post: {
        operationId: 'recordRelease',
        summary: 'A version released: several stay live at once',
        security: write,
        requestBody: placement,
        responses: { '200': json(object), '201': json(object), ...refusals },
      },
    },
    '/releases/support-ended': {
      post: {
        operationId: 'recordSupportEnded',
        security: write,
        requestBody: placement,
        responses: { '200': json(object), ...refusals },
      },
    },
    '/can-i-deploy': {
      get: {
        operationId: 'canIDeploy',
        parameters: [
          name('query', 'application', 'The application.'),
          name('query', 'version', 'The version to deploy.'),
          name('query', 'to', 'The environment.'),
        ],
        responses: { '200': json({ $ref: '#/components/schemas/CanIDeploy' }), ...refusals },
      },
    },
    '/check-document': {
      post: {
        operationId: 'checkDocument',
        summary: 'Judge a draft of the document against every running consumer; stores nothing',
        requestBody: { required: true, content: { 'application/json': { schema: object } } },
        responses: { '200': json(object), '413': error, ...refusals },
      },
    },
    '/matrix': {
      get: {
        operationId: 'matrix',
        responses: {
          '200': json({ type: 'array', items: { $ref: '#/components/schemas/Row' } }),
          ...refusals,
        },
      },
    },
    '/uses': {
      get: {
        operationId: 'uses',
        summary: 'Who uses each operation, parameter, status and field',
        responses: { '200': json(object), ...refusals },
      },
    },
    '/clean-up': {
      post: {
        operationId: 'cleanUp',
        security: write,
        parameters: [
          { name: 'keepDays', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
        ],
        responses: { '200': json(object), ...refusals },
      },
    },
    '/healthz': {
      get: { operationId: 'health', security: [], responses: { '200': json(object) } },
    },
  },
  components: {
    securitySchemes: {
      readToken: { type: 'http', scheme: 'bearer', description: 'BROKER_READ_TOKEN or BROKER_WRITE_TOKEN' },
      writeToken: { type: 'http', scheme: 'bearer', description: 'BROKER_WRITE_TOKEN' },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error', 'message'],
        properties: {
          error: { type: 'integer', description: 'The HTTP status.' },
          message: { type: 'string' },
        },
      },
      Placement: {
        type: 'object',
        required: ['application', 'version', 'environment'],
        properties: {
          application: { type: 'string' },
          version: { type: 'string' },
          environment: { type: 'string' },
        },
      },
      Row: {
        type: 'object',
        required: [
          'consumer',
          'consumerVersion',
          'store',
          'storeVersion',
          'compatible',
          'verified',
          'findings',
        ],
        properties: {
          consumer: { type: 'string' },
          consumerVersion: { type: 'string' },
          store: { type: 'string' },
          storeVersion: { type: 'string' },
          compatible: { type: 'boolean' },
          verified: { type: 'boolean' },
          findings: { type: 'array', items: object },
        },
      },
      CanIDeploy: {
        type: 'object',
        required: ['answer', 'reasons', 'rows'],
        properties: {
          answer: { enum: ['yes', 'no', 'unknown'] },
          reasons: { type: 'array', items: { type: 'string' } },
          rows: { type: 'array', items: { $ref: '#/components/schemas/Row' } },
        },
      },
    },
  },
} as const
