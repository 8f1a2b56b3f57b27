// Follows a list's `Link: <…>; rel="next"` headers from page to page, as a client would.
import { nextAddress } from '@plant-store/core'

export interface Page {
  /** The page's address (path and query), as requested. */
  address: string
  status: number
  body: unknown
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
  let address: string | undefined = first
  for (let pages = 0; address !== undefined; pages++) {
    if (pages === maxPages) throw new Error(`more than ${maxPages} pages follow ${first}`)
    const response: Response = await fetch(new URL(address, baseUrl), {
      headers,
      signal: AbortSignal.timeout(10_000),
    })
    const text = await response.text()
    yield { address, status: response.status, body: text ? JSON.parse(text) : undefined }
    if (response.status !== 200) return
    address = nextAddress(response.headers.get('link'))
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
