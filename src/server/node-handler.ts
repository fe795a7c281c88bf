import type { IncomingMessage, ServerResponse } from 'node:http'

/** Any Fetch-API handler: a `ChatHandler`, the health handlers, your own router around them. */
export type FetchHandler = (request: Request) => Promise<Response> | Response

/**
 * A Web-standard handler as a `node:http` listener. The request body streams in (the handler
 * enforces its size limit while reading); the response body streams out with backpressure. When
 * the client disconnects, the response body is cancelled: a running turn notices only that its
 * writes go nowhere, and completes and is stored anyway. Only types come from node:http, so
 * importing chatrail/server loads no `node:` module (edge runtimes without Node APIs can import it).
 */
export function toNodeHandler(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void serve(handler, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
      res.end(res.headersSent ? undefined : JSON.stringify({ error: { code: 'internal_error', message: 'The server failed to handle this request.' } }))
    })
  }
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const host = req.headers.host ?? 'localhost'
  const url = new URL(req.url ?? '/', `http://${host}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const request = new Request(url, {
    method: req.method ?? 'GET',
    headers,
    ...(hasBody ? { body: webBody(req), duplex: 'half' } : {}),
  } as RequestInit)
  const response = await handler(request)
  const outHeaders: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    outHeaders[name] = value
  })
  res.writeHead(response.status, outHeaders)
  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  res.on('close', () => {
    if (!res.writableFinished) void reader.cancel().catch(() => undefined)
  })
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve))
    if (res.destroyed) break
  }
  res.end()
}

/** The request body as a Web stream, pulled on demand (so a refused body is never read in full). */
function webBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  const iterator = (req as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next()
      if (done) controller.close()
      else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}
