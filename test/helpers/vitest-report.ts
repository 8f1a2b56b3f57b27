// Reads the JSON report of a vitest run the tests start in a scratch app: its counts, and its failures
// together with the run's output, since the JSON reporter keeps the failures out of the output.
import { readFile } from 'node:fs/promises'

export async function readVitestReport(
  report: string,
  output: string,
): Promise<{ total?: number; passed?: number; shown: string }> {
  const results = JSON.parse(await readFile(report, 'utf8').catch(() => '{}')) as {
    numTotalTests?: number
    numPassedTests?: number
    testResults?: { message?: string; assertionResults?: { failureMessages?: string[] }[] }[]
  }
  const failures = (results.testResults ?? []).flatMap((file) => [
    file.message ?? '',
    ...(file.assertionResults ?? []).flatMap((test) => test.failureMessages ?? []),
  ])
  return {
    total: results.numTotalTests,
    passed: results.numPassedTests,
    shown: [output, ...failures].filter(Boolean).join('\n'),
  }
}
