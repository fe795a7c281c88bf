import { request } from 'node:http'
import { API_PATH, READY_PATH } from './serve-http.js'

/**
 * What `chatrail serve` does once it serves and before it says it listens, so the first request
 * pays no start-up: over HTTP to itself (the same socket, parser and Node adapter a client's request
 * goes through), `GET /ready` (the store's first statement: on PGlite, parsing and planning it in
 * the WASM Postgres), then one `GET /api/chat` for an id nobody uses (authentication, the store's
 * read, decoding, a session synced to the initial state: the code a first GET runs, compiled now).
 * Nothing is written. A warm-up that fails is not fatal (the store already opened): the reason goes
 * to `onError` and the first request pays instead.
 */
export const WARM_UP_ID = 'chatrail-warm-up'

export async function warmUp(url: string, token: string | undefined, onError: (error: unknown) => void): Promise<void> {
  try {
    const ready = await get(`${url}${READY_PATH}`, {})
    if (ready.status !== 200) onError(new Error(`chatrail serve: the warm-up's ${READY_PATH} answered ${ready.status} ${ready.body}`))
    const read = await get(`${url}${API_PATH}?id=${WARM_UP_ID}`, token === undefined ? {} : { authorization: `Bearer ${token}` })
    if (read.status !== 200) onError(new Error(`chatrail serve: the warm-up GET answered ${read.status} ${read.body}`))
  } catch (error) {
    onError(error)
  }
}

/** A GET with node:http (the global fetch would load undici into the server for one request). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}
