// Lints spec/openapi.yaml with Redocly's rules (redocly.yaml), through its library rather than its CLI,
// whose start-up banner about the Node release says nothing about the document.
import { formatProblems, getTotals, lint, loadConfig } from '@redocly/openapi-core'
import { repoRoot } from './lib/processes.js'
import { specPath } from './lib/spec.js'

const config = await loadConfig({ configPath: `${repoRoot}redocly.yaml` })
const problems = await lint({ ref: specPath, config })
const totals = getTotals(problems)
formatProblems(problems, { format: 'stylish', totals, version: 'openapi-core' })
if (totals.errors === 0) {
  console.log(`spec/openapi.yaml: valid (${totals.warnings} warnings)`)
} else {
  process.exitCode = 1
}
