// The slice of autocannon 9's API the benchmark uses: the package ships no types of its own.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
  }

  export interface RequestEntry extends Request {
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void
  }

  export interface Options {
    url: string
    connections?: number
    pipelining?: number
    /** Seconds. */
    duration?: number
    /** Seconds without an answer before a request counts as a timeout. */
    timeout?: number
    maxOverallRequests?: number
    /** Requests per second over all connections: a fixed offered load instead of as fast as possible. */
    overallRate?: number
    /** Milliseconds between samples; also how soon `stop()` takes effect. */
    sampleInt?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: RequestEntry[]
  }

  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p99: number
  }

  export interface Result {
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
    requests: Histogram & { sent: number }
    latency: Histogram
  }

  export interface Instance extends EventEmitter {
    stop(): void
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this
  }

  export default function autocannon(
    options: Options,
    callback: (error: Error | null, result: Result) => void,
  ): Instance
}
