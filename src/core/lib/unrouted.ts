// What a request no operation takes is answered: 405 with Allow on a documented path (as HTTP asks),
// 404 elsewhere. The server's not-found handler and the in-process handlers both answer with it.
import type { OperationEntry } from '../document.js'
import { HttpError } from './errors.js'

export function unrouted(operations: OperationEntry[]): (method: string, path: string) => HttpError {
  const paths = [...new Set(operations.map((entry) => entry.path))].map((path) => ({
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    allow: operations.filter((entry) => entry.path === path).map((entry) => entry.method.toUpperCase()),
  }))
  return (method, path) => {
    const known = paths.find((candidate) => candidate.pattern.test(path))
    if (known) {
      // The same words on every path, so that the document's one example is each path's answer.
      return new HttpError(405, `method ${method} is not allowed on this path; Allow lists those it takes`, {
        allow: known.allow.join(', '),
      })
    }
    return new HttpError(404, `no route for ${method} ${path}`)
  }
}
