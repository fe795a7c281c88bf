import { request } from 'node:http'
import { Readable } from 'node:stream'

/**
 * `fetch` over node:http, for a page under happy-dom talking to a real chatrail server on
 * 127.0.0.1: happy-dom's own fetch applies a browser's same-origin policy (and its Request drops the
 * `Origin` header a CORS answer depends on), which a test page at http://localhost:3000 cannot pass.
 * The response streams (a turn's UI message stream arrives as the server writes it).
 */
export const nodeFetch: typeof fetch = (input, init) => new Promise((resolve, reject) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  const headers: Record<string, string> = {}
  new Headers(init?.headers).forEach((value, name) => {
    headers[name] = value
  })
  const req = request(url, { method: init?.method ?? 'GET', headers }, (res) => {
    const responseHeaders = new Headers()
    for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders.set(name, value)
    const body = res.statusCode === 204 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>)
    resolve(new Response(body, { status: res.statusCode ?? 500, headers: responseHeaders }))
  })
  req.on('error', reject)
  init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true })
  if (typeof init?.body === 'string') req.write(init.body)
  req.end()
})
