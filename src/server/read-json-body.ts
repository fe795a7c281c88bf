import { HttpError } from './http-responses.js'

// Stateless between calls (no `stream` option), so one serves every request.
const decoder = new TextDecoder()

/**
 * Reads a request's JSON body, refusing before parsing: a content type other than JSON (415), a
 * body over `maxBytes` (413, counted while reading, so a lying or missing Content-Length can't get
 * a larger body through), and text that is not JSON (400).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new HttpError(415, 'unsupported_media_type', `Send the body as JSON with "Content-Type: application/json" (got ${contentType === '' ? 'none' : JSON.stringify(contentType.slice(0, 80))}).`)
  }
  const tooLarge = (): HttpError => new HttpError(413, 'body_too_large', `The body is larger than ${maxBytes} bytes (limits.maxBodyBytes).`)
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge()
  if (!request.body) throw new HttpError(400, 'invalid_json', 'The body is empty; send the chat request as JSON.')
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  let bytes = chunks[0] ?? new Uint8Array(0)
  if (chunks.length > 1) {
    bytes = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      bytes.set(chunk, offset)
      offset += chunk.byteLength
    }
  }
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not valid JSON.')
  }
}
