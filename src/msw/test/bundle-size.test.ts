// What the handlers add to a page built by Vite stays within its budget: validators compiled ahead of
// time and the document without its prose, with Ajv only in a chunk a page loads on demand.
import { describe, expect, it } from 'vitest'
import { measureApps, minus } from '../../../bench/bundle-size.js'

describe('what the handlers add to a page (npm run bench:bundle, here from the sources)', () => {
  it('is at most 25 kB gzipped beyond MSW, with Ajv left to a chunk loaded on demand', async () => {
    const sizes = await measureApps({ fromSources: true })
    const added = minus(sizes.handlers, sizes.msw)
    expect(added.gzip).toBeGreaterThan(0)
    expect(added.gzip).toBeLessThanOrEqual(25_000)
    // Ajv compiles a document of one's own: a chunk of its own, larger than all the handlers load at start.
    expect(sizes.handlers.lazyGzip).toBeGreaterThan(added.gzip)
    expect(sizes.msw.lazyGzip).toBe(0)
  }, 60_000)
})
