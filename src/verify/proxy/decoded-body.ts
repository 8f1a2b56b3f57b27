// A body as its reader sees it, after its Content-Encoding: what the proxy judges and what a recording
// keeps. One that does not decode stays as it came (and is then judged unreadable).
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

export function decodedBody(body: Buffer, encoding: string | undefined): Buffer {
  try {
    switch (encoding?.trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body)
      case 'deflate':
        return inflateSync(body)
      case 'br':
        return brotliDecompressSync(body)
      default:
        return body
    }
  } catch {
    return body
  }
}
