// Finds Debian's Chromium for browser tests driven by playwright-core (no downloaded browsers). Where it
// is missing a test is skipped with the reason printed, except in CI, where a missing browser fails.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']

export function chromiumPath(): string | undefined {
  for (const path of candidates) if (path && existsSync(path)) return path
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/** The reason browser tests cannot run here, printed once; in CI the absence is an error instead. */
export function chromiumMissing(): string | undefined {
  if (chromiumPath()) return undefined
  const reason = 'Chromium is not installed (Debian: apt-get install chromium; or set CHROMIUM_PATH)'
  if (process.env.CI === 'true') throw new Error(`${reason}: CI must run the browser tests`)
  console.warn(`Skipping the browser tests: ${reason}.`)
  return reason
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI machines run tests as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] })
}
