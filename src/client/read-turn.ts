import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import { uiPartToChunks } from '../protocol/decode-parts.js'
import { readUiMessageStream, STREAM_ENDED_EARLY } from '../protocol/read-ui-message-stream.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { HttpAdapterError } from './http-adapter-error.js'
import type { HttpAdapterOptions } from './http-adapter.js'
import { pause, reconnect, storedAnswerOf } from './resume-turn.js'

/**
 * A turn's UI message stream read into chunks, resumed when the connection breaks: the server runs
 * the turn to its end whatever the client does, so a cut connection (a network error, a body that
 * ends before `finish`) is answered by reconnecting to the turn's stream (`GET <api>/<id>/stream`,
 * up to `MAX_RESUMES` times, waiting a little longer each time). The resumed stream replays the
 * turn from its start; what was already yielded (text and reasoning, counted in characters, and the sources,
 * snapshot and error parts, counted) is skipped, so every chunk reaches the controller once, in
 * order. When the server says nothing runs any more (204: the turn ended meanwhile), the rest of
 * the stored answer is read with GET. Only when all of that fails does the turn end in an error.
 */
export const MAX_RESUMES = 3
const RESUME_DELAYS_MS = [100, 500, 2000]

const ERROR_CODE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/

interface Progress {
  text: number
  reasoning: number
  /** Cited sources (empty text chunks carrying `metadata.source`), counted. */
  sources: number
  snapshots: number
  errors: number
}

export const errorChunk = (error: HttpAdapterError): StreamChunk => ({
  type: 'error',
  content: error.message,
  metadata: { error, code: error.code, ...(error.status === undefined ? {} : { status: error.status }) },
})

const cutError = (api: string, cause: unknown): HttpAdapterError =>
  new HttpAdapterError({ code: 'network_error', message: `The connection to ${api} broke mid-turn and the turn could not be resumed: ${cause instanceof Error ? cause.message : String(cause)}`, cause })

/** A chunk with its first `skip` characters dropped (what a replay repeats); undefined when nothing is left. */
function skipped(chunk: StreamChunk, progress: Progress, skip: Progress): StreamChunk | undefined {
  if (chunk.type === 'text' && chunk.metadata?.source !== undefined) {
    if (skip.sources > 0) {
      skip.sources--
      return undefined
    }
    progress.sources++
    return chunk
  }
  if ((chunk.type !== 'text' && chunk.type !== 'reasoning') || typeof chunk.content !== 'string') return chunk
  const key = chunk.type
  let content = chunk.content
  const drop = Math.min(skip[key], content.length)
  skip[key] -= drop
  content = content.slice(drop)
  if (content === '') return undefined
  progress[key] += content.length
  return { ...chunk, content }
}

/**
 * Reads `first` (the POST's body, or `'resume'` to start from the turn's stream: a restored
 * conversation whose turn still runs), yielding chunks and, at the end, `done` or one `error`.
 */
export async function* readTurn(options: HttpAdapterOptions, first: ReadableStream<Uint8Array> | 'resume', user: Message | undefined, answered: Map<string, string | undefined>, signal: AbortSignal): AsyncGenerator<StreamChunk> {
  let failure: HttpAdapterError | undefined
  let snapshot: ChatrailPartData | undefined
  const progress: Progress = { text: 0, reasoning: 0, sources: 0, snapshots: 0, errors: 0 }
  let skip: Progress = { ...progress }
  let body: ReadableStream<Uint8Array> | undefined = first === 'resume' ? undefined : first
  let cut: unknown = first === 'resume' ? new Error('resuming a restored turn') : undefined
  let resumes = 0
  for (;;) {
    if (body) {
      cut = undefined
      try {
        for await (const part of readUiMessageStream(body)) {
          if (signal.aborted) return
          if (part.type === 'error' && part.errorText === STREAM_ENDED_EARLY) {
            cut = new Error(part.errorText)
            break
          }
          if (part.type === 'data-chatrail') {
            if (skip.snapshots > 0) skip.snapshots--
            else {
              progress.snapshots++
              snapshot = part.data
              options.onSnapshot?.(part.data)
            }
            continue
          }
          if (part.type === 'error') {
            // the server follows an error part with the snapshot and `finish`: keep reading for the snapshot
            // chatrail/server's error parts are codes (`AGENT_ERROR`); the reader's own are sentences
            if (skip.errors > 0) skip.errors--
            else {
              progress.errors++
              failure ??= new HttpAdapterError({ code: ERROR_CODE.test(part.errorText) ? part.errorText : 'stream_error', message: part.errorText })
            }
            continue
          }
          if (part.type === 'finish') break
          if (failure !== undefined) continue
          for (const chunk of uiPartToChunks(part)) {
            const rest = skipped(chunk, progress, skip)
            if (rest) yield rest
          }
        }
      } catch (error) {
        if (signal.aborted) return
        cut = error
      }
      body = undefined
    }
    if (signal.aborted) return
    if (cut === undefined) break
    // the connection broke (or a restored turn still runs): follow the turn on the server
    if (user === undefined || resumes >= MAX_RESUMES) {
      failure ??= cutError(options.api, cut)
      break
    }
    if (first !== 'resume' || resumes > 0) await pause(RESUME_DELAYS_MS[resumes] ?? 2000, signal)
    resumes++
    if (signal.aborted) return
    const again = await reconnect(options, signal)
    if (signal.aborted) return
    if (again.kind === 'stream') {
      body = again.body
      skip = { ...progress }
      continue
    }
    if (again.kind === 'failed') {
      if (again.error.code === 'network_error') continue // the server may be back at the next try
      failure ??= again.error
      break
    }
    // nothing runs any more: the turn ended, its answer is stored
    const stored = await storedAnswerOf(options, user.id, signal)
    if (signal.aborted) return
    if (!stored) {
      failure ??= cutError(options.api, cut)
      break
    }
    const text = stored.text.slice(Math.min(progress.text, stored.text.length))
    if (text !== '' && failure === undefined) yield { type: 'text', content: text }
    if (stored.chatrail) {
      snapshot = stored.chatrail
      options.onSnapshot?.(stored.chatrail)
    }
    break
  }
  if (failure) {
    yield errorChunk(failure)
    return
  }
  if (user !== undefined) answered.set(user.id, user.content)
  yield { type: 'done', ...(snapshot === undefined ? {} : { metadata: { chatrailSnapshot: snapshot } }) }
}
