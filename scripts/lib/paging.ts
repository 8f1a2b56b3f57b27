// Follows a list's `Link: <…>; rel="next"` headers from page to page, as a client would: each target
// resolved against the address of the request that got the page (RFC 8288 §3.2, RFC 3986 §5), so a
// store mounted below a path prefix (`http://host/api`) is paged through the same way.
import { nextAddress } from '@plant-store/core'

export interface Page {
  /** The page's address (path and query), as requested. */
  address: string
  /** The page's full URL, as requested. */
  url: string
  status: number
  body: unknown
}

/** `first` (a path such as `/plants?limit=2`) below `baseUrl`, whose own path it keeps (`http://host/api`). */
export function addressBelow(baseUrl: string, first: string): URL {
  if (/^[a-z][a-z0-9+.-]*:/i.test(first)) return new URL(first)
  const base = new URL(baseUrl)
  return new URL(`${base.pathname.replace(/\/+$/, '')}/${first.replace(/^\/+/, '')}`, base.origin)
}

/**
 * Each page from `first` on, until a page without a next link or one that is not a 200 (yielded, then
 * the walk ends). Throws when more than `maxPages` pages follow, so a Link that loops cannot hang.
 */
export async function* followLinks(
  baseUrl: string,
  first: string,
  headers: Record<string, string>,
  maxPages = 1_000,
): AsyncGenerator<Page> {
  let url: URL | undefined = addressBelow(baseUrl, first)
  for (let pages = 0; url !== undefined; pages++) {
    if (pages === maxPages) throw new Error(`more than ${maxPages} pages follow ${first}`)
    const response: Response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) })
    const text = await response.text()
    const address = `${url.pathname}${url.search}`
    yield { address, url: url.href, status: response.status, body: text ? JSON.parse(text) : undefined }
    if (response.status !== 200) return
    const target = nextAddress(response.headers.get('link'))
    // The address the request went to (after any redirect), not a base of our own.
    url = target === undefined ? undefined : new URL(target, response.url || url)
  }
}

/** Every item of every page; throws on a page that is not a 200. */
export async function listAll<T>(
  baseUrl: string,
  first: string,
  headers: Record<string, string>,
  maxPages?: number,
): Promise<T[]> {
  const items: T[] = []
  for await (const page of followLinks(baseUrl, first, headers, maxPages)) {
    if (page.status !== 200)
      throw new Error(`GET ${page.address} answered ${page.status} ${JSON.stringify(page.body)}`)
    items.push(...(page.body as T[]))
  }
  return items
}
