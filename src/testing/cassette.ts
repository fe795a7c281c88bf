import { readFileSync, writeFileSync } from 'node:fs'
import { z } from 'zod'
import { ChatrailError } from '../contract/errors.js'
import { streamChunkSchema } from '../contract/schemas.js'
import type { AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk } from '../contract/stream.js'

/**
 * A cassette: what a real adapter streamed for each request, saved as JSON so agentic turns can be
 * replayed offline (`replayAdapter`). Requests are kept as their role/content transcript only:
 * message ids and timestamps differ between runs, the conversation text does not.
 */
export interface CassetteRequest {
  messages: { role: string; content: string }[]
  systemPrompt?: string
}

export interface CassetteInteraction {
  request: CassetteRequest
  chunks: StreamChunk[]
  /** The consumer aborted the stream before it ended; `chunks` holds what arrived before that. */
  aborted?: boolean
}

export interface Cassette {
  version: 1
  interactions: CassetteInteraction[]
}

const cassetteSchema: z.ZodType<Cassette> = z.object({
  version: z.literal(1),
  interactions: z.array(
    z.object({
      request: z.object({
        messages: z.array(z.object({ role: z.string(), content: z.string() })),
        systemPrompt: z.string().optional(),
      }),
      chunks: z.array(streamChunkSchema),
      aborted: z.boolean().optional(),
    }),
  ),
})

/** The part of a request a cassette keys on. Pure. */
export function cassetteRequest(request: AdapterRequest): CassetteRequest {
  const messages = request.messages.map((message) => ({ role: message.role, content: message.content }))
  const systemPrompt = request.context?.systemPrompt
  return systemPrompt === undefined ? { messages } : { messages, systemPrompt }
}

/** Whether two cassette requests are the same conversation. Pure. */
export function sameCassetteRequest(a: CassetteRequest, b: CassetteRequest): boolean {
  if (a.systemPrompt !== b.systemPrompt || a.messages.length !== b.messages.length) return false
  return a.messages.every((message, index) => {
    const other = b.messages[index]
    return other !== undefined && other.role === message.role && other.content === message.content
  })
}

/** Checks untrusted JSON (a cassette file's content) and names the first problem. */
export function parseCassette(value: unknown, source = 'cassette'): Cassette {
  const result = cassetteSchema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.map(String).join('.')}`
  throw new ChatrailError({
    code: 'CASSETTE_INVALID',
    message: `${source} is not a chatrail cassette${where}: ${issue?.message ?? 'invalid'}`,
    hint: 'Record it again with recordingAdapter (or `chatrail test --record`); cassettes are { version: 1, interactions: [...] }.',
  })
}

export function readCassette(path: string): Cassette {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ChatrailError({
      code: 'CASSETTE_MISSING',
      message: `cannot read cassette ${path}: ${error instanceof Error ? error.message : String(error)}`,
      hint: 'Record it first: run the conversation with `chatrail test --record`, or save recordingAdapter(adapter).cassette() with writeCassette.',
      cause: error,
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ChatrailError({ code: 'CASSETTE_INVALID', message: `cassette ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`, hint: 'Record it again.' })
  }
  return parseCassette(json, `cassette ${path}`)
}

/** Writes a cassette as indented JSON with a trailing newline, so diffs of re-recordings read well. */
export function writeCassette(path: string, cassette: Cassette): void {
  writeFileSync(path, `${JSON.stringify(cassette, null, 2)}\n`)
}
