// The Prism command lines, in one place: `npm run mock` / `npm run proxy` and the contract suite
// start Prism with exactly these, so the suite tests the mock and proxy that developers run.
import { specPath } from './document.js'

export interface Listen {
  host: string
  port: number
}

/** `prism mock`: static examples, or data generated from the schemas with `dynamic`. */
export function mockArgs({ host, port }: Listen, dynamic = false): string[] {
  // -m false: one process, so stopping it needs no cluster bookkeeping.
  return [
    'mock',
    specPath,
    '--host',
    host,
    '--port',
    String(port),
    '--multiprocess',
    'false',
    ...(dynamic ? ['--dynamic'] : []),
  ]
}

/**
 * `prism proxy` in front of a real server, a response that violates the document becoming an error.
 *
 * --errors: a response violation is answered with Prism's 500 VIOLATIONS problem instead of the
 *   upstream's response, so a non-conforming server fails whoever calls through the proxy.
 * --validate-request=false: with --errors, Prism answers an invalid request itself (422) rather
 *   than forwarding it; the document says the server answers those (400), so they must reach it.
 *   Prism still checks security itself: see contracts/deviations.ts.
 */
export function proxyArgs({ host, port }: Listen, upstream: string): string[] {
  return [
    'proxy',
    specPath,
    upstream,
    '--host',
    host,
    '--port',
    String(port),
    '--multiprocess',
    'false',
    '--errors',
    '--validate-request=false',
  ]
}
