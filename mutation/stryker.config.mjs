// Stryker's configuration for the kit: each mutant of the code that decides the store's answers is
// judged by the verifier alone (mutation/verifier-runner.ts), never by the unit tests.
// `npm run mutate` runs it; mutation/README.md says what it does and what the last run found.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  plugins: ['./mutation/verifier-runner.ts', './mutation/survivors-reporter.ts'],
  testRunner: 'verifier',
  // The store switches mutants as it runs, and records which layer reached which mutant.
  coverageAnalysis: 'perTest',
  // Three runners, each with its own stores, on two cores: a run mostly waits (a rate window, a
  // connection the store must close), so one runner left the machine idle and took over an hour.
  concurrency: 3,
  // The verifier's sizes: small and fixed, so that every mutant meets the same requests.
  verifier: { requests: 60, sequences: 8, seed: 20261202 },
  // The verifier's runs start nothing Stryker can type-check: mutants are judged by answers only.
  checkers: [],
  mutate: [
    'src/core/**/*.ts',
    'src/server/**/*.ts',
    // Generated from the document, never edited: a change there is a change of the document.
    '!src/*/generated/**',
    // The MSW handlers' consumer-contract recording: no request to the server reaches it.
    '!src/core/contract.ts',
    '!src/core/lib/{consumer-contract,contract-file,contract-recorder,recording}.ts',
    // The compatibility judge between two documents (the gate and the broker): it answers no request.
    '!src/core/compat.ts',
    '!src/core/compat/**',
    // What the MSW handlers run and the server does not: their request reader (the server reads with
    // Fastify) and the in-memory store (the server's store is SQL).
    '!src/core/lib/request-reader.ts',
    '!src/core/repository/memory-repository.ts',
    // What the server never calls and the other packages do: the examples' given plants (the sandbox,
    // /docs, the handlers), a flattened schema (/docs, the verifier), reading a Link header and a plant's
    // JSON text (the verifier, the webhook's events), and the run time of the validators compiled ahead
    // of time (the handlers; the server compiles its own with Ajv, which counts lengths itself).
    '!src/core/lib/{given-plants,flat-schema,next-address,plant-json,ajv-runtime}.ts',
    // CORS answers a browser's cross-origin requests, which the document does not describe: no case
    // may judge them. src/server/test/security.test.ts covers what the server sends.
    '!src/server/plugins/external/cors.ts',
    // A command-line option's parser, read before any app exists.
    '!src/core/lib/port-option.ts',
    // The CLI, the start and the shutdown: run once around the app, no answer depends on them.
    '!src/server/{cli,server,index}.ts',
    '!src/server/lib/{graceful-close,supported-node}.ts',
    // The configuration is read from the environment before the app exists; the runner gives its own.
    '!src/server/config.ts',
    '!src/server/config/**',
    // Logging: what the server writes to its log, not to a client.
    '!src/server/lib/{log-format,log-destination}.ts',
    // The /docs page (HTML for a person), which the document does not describe.
    '!src/server/lib/docs-document.ts',
    '!src/server/plugins/external/docs.ts',
    // The sandbox mode (any token a principal), a different server than the one judged here.
    '!src/server/lib/{sandbox-principals,sandbox-seed}.ts',
    '!src/server/plugins/app/sandbox.ts',
    // The store runs on SQLite in memory; PostgreSQL has its own tests against a cluster.
    '!src/server/repository/postgres-repository.ts',
    // JSON Web Tokens need an identity provider; the verifier is given static tokens.
    '!src/server/lib/jwt.ts',
    // The newPlant webhook is judged only with a receiver the store sends to, which this run has not.
    '!src/server/webhooks/**',
    '!src/server/repository/outbox.ts',
    '!src/server/plugins/app/webhooks.ts',
  ],
  // Only the sources the store is built from go to the sandbox (the packages' tests stay out: `test`).
  ignorePatterns: ['dist', 'bench', 'contracts', 'docs', 'test', 'data', 'reports', '.ci', 'scripts'],
  reporters: ['html', 'json', 'progress', 'clear-text', 'survivors'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  // A mutant that makes the store hang is a timeout, not a failed answer: a layer takes a few seconds.
  timeoutMS: 20000,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  // Stryker rewrites this file's references to outside the sandbox with TypeScript's JS API, which
  // TypeScript 7 no longer has; tsconfig.json refers to nothing outside the project, so a file that
  // does not exist turns the rewrite off, and the sandbox keeps tsconfig.json as it is (tsx reads it).
  tsconfigFile: 'mutation/no-tsconfig-to-rewrite.json',
  cleanTempDir: true,
}
