import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A scripted OpenAI Responses API on 127.0.0.1, complete enough for the real Codex CLI to do
 * real work: every `POST /v1/responses` consumes the next scripted response, streamed as SSE
 * the way the API does (`response.created`, `response.output_item.added` / deltas /
 * `.done`, `response.completed` with usage). Tool calls are real `function_call` items, so the
 * CLI executes the command itself and sends the output back in the next request, which the
 * server records for assertions.
 */

/** One item of a model response. `exec` is the CLI's `exec_command` tool with `{ cmd }`. */
export type ScriptedItem =
  | { type: 'message'; text: string; phase?: 'commentary' | 'final_answer' }
  | { type: 'reasoning'; summary: string[] }
  | { type: 'exec'; cmd: string; callId?: string }
  | { type: 'function_call'; name: string; arguments: string; callId?: string }

export interface ScriptedUsage {
  inputTokens: number
  outputTokens: number
  cachedTokens?: number
  reasoningTokens?: number
}

export type ScriptedResponse =
  /** A streamed response; `gapMs` pauses between items (a mid-turn window for snapshots). */
  | { type: 'respond'; items: ScriptedItem[]; usage?: ScriptedUsage; gapMs?: number }
  /**
   * An HTTP error before any stream (the CLI may retry: bound it with `request_max_retries`).
   * `retryAfterMs`: sent as `retry-after-ms`, as the API does on a 429; the AI SDK waits that long
   * before its retry instead of its 2 s backoff.
   */
  | { type: 'http_error'; status: number; message: string; code?: string; retryAfterMs?: number }
  /** A stream that ends in `response.failed`. */
  | { type: 'stream_failed'; code: string; message: string }
  /** `response.created`, then nothing until the client goes away (a turn to interrupt). */
  | { type: 'hang' }

export interface RecordedRequest {
  method: string
  path: string
  /** The parsed JSON body (`undefined` when it is not JSON). */
  body: unknown
  /** Which scripted response answered it (-1: none, the script was exhausted or the path unknown). */
  scriptIndex: number
}

export interface OpenAIServer {
  /** `http://127.0.0.1:PORT/v1`, for `model_providers.<name>.base_url`. */
  baseUrl: string
  port: number
  requests: RecordedRequest[]
  /** Requests the script could not answer; a test that expects a complete run asserts it is empty. */
  problems: string[]
  /** Appends responses to the script (for a later turn or a resume). */
  push: (...responses: ScriptedResponse[]) => void
  /** Responses not consumed yet. */
  remaining: () => number
  close: () => Promise<void>
}

export const say = (text: string, phase?: 'commentary' | 'final_answer'): ScriptedItem =>
  phase ? { type: 'message', text, phase } : { type: 'message', text }
export const think = (...summary: string[]): ScriptedItem => ({ type: 'reasoning', summary })
export const run = (cmd: string, callId?: string): ScriptedItem =>
  callId ? { type: 'exec', cmd, callId } : { type: 'exec', cmd }
export const respond = (...items: ScriptedItem[]): ScriptedResponse => ({ type: 'respond', items })

/** The `function_call_output` items the CLI sent in a request: the commands it really ran. */
export function functionOutputs(request: RecordedRequest): { callId: string; output: string }[] {
  const input = (request.body as { input?: unknown } | undefined)?.input
  if (!Array.isArray(input)) return []
  const outputs: { callId: string; output: string }[] = []
  for (const item of input as Record<string, unknown>[]) {
    if (item.type !== 'function_call_output') continue
    const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output)
    outputs.push({ callId: String(item.call_id), output })
  }
  return outputs
}

export async function startOpenAIServer(script: ScriptedResponse[] = []): Promise<OpenAIServer> {
  const queue = [...script]
  const requests: RecordedRequest[] = []
  const problems: string[] = []
  let consumed = 0
  let responseNumber = 0
  const open = new Set<ServerResponse>()

  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const body = parseJson(raw)
      const path = req.url ?? '/'
      const isResponses = req.method === 'POST' && path.replace(/\?.*$/, '').endsWith('/responses')
      const next = isResponses ? queue.shift() : undefined
      const scriptIndex = next ? consumed++ : -1
      requests.push({ method: req.method ?? 'GET', path, body, scriptIndex })
      if (!isResponses) {
        problems.push(`unexpected request ${req.method} ${path}`)
        sendJson(res, 404, { error: { message: `no route for ${path}`, type: 'not_found' } })
        return
      }
      if (!next) {
        problems.push(`script exhausted at request ${requests.length} (${path})`)
        sendJson(res, 500, { error: { message: 'scripted server: script exhausted', type: 'server_error' } })
        return
      }
      responseNumber += 1
      open.add(res)
      res.on('close', () => open.delete(res))
      void play(res, next, `resp_${responseNumber}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    problems,
    push: (...responses) => void queue.push(...responses),
    remaining: () => queue.length,
    close: async () => {
      for (const res of open) res.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function play(res: ServerResponse, scripted: ScriptedResponse, responseId: string): Promise<void> {
  if (scripted.type === 'http_error') {
    sendJson(res, scripted.status, {
      error: { message: scripted.message, type: 'server_error', code: scripted.code ?? null },
    }, scripted.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(scripted.retryAfterMs) })
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const sse = new SseWriter(res)
  // `created_at` and `model` as the API sends them: @ai-sdk/openai validates both (the Codex CLI ignores them)
  sse.send('response.created', { response: { id: responseId, object: 'response', created_at: SCRIPTED_CREATED_AT, model: SCRIPTED_MODEL, status: 'in_progress', output: [] } })
  if (scripted.type === 'hang') return // the client disconnects (SIGINT) or the server closes
  if (scripted.type === 'stream_failed') {
    sse.send('response.failed', {
      response: { id: responseId, status: 'failed', error: { code: scripted.code, message: scripted.message } },
    })
    res.end()
    return
  }
  const output: unknown[] = []
  for (const [index, item] of scripted.items.entries()) {
    if (index > 0 && scripted.gapMs) await sleep(scripted.gapMs)
    if (res.destroyed) return
    output.push(streamItem(sse, item, index, `${responseId}_${index}`))
  }
  const usage = scripted.usage ?? { inputTokens: 120, outputTokens: 30 }
  sse.send('response.completed', {
    response: {
      id: responseId,
      object: 'response',
      status: 'completed',
      output,
      usage: {
        input_tokens: usage.inputTokens,
        input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
        output_tokens: usage.outputTokens,
        output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    },
  })
  res.end()
}

/** Streams one output item with the events the API emits for its type; returns the final item. */
function streamItem(sse: SseWriter, item: ScriptedItem, outputIndex: number, id: string): unknown {
  switch (item.type) {
    case 'message': {
      const done = {
        type: 'message',
        id: `msg_${id}`,
        role: 'assistant',
        status: 'completed',
        ...(item.phase ? { phase: item.phase } : {}),
        content: [{ type: 'output_text', text: item.text, annotations: [] }],
      }
      sse.send('response.output_item.added', { output_index: outputIndex, item: { ...done, status: 'in_progress', content: [] } })
      sse.send('response.content_part.added', { item_id: done.id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '' } })
      for (const delta of chunks(item.text)) {
        sse.send('response.output_text.delta', { item_id: done.id, output_index: outputIndex, content_index: 0, delta })
      }
      sse.send('response.output_text.done', { item_id: done.id, output_index: outputIndex, content_index: 0, text: item.text })
      sse.send('response.output_item.done', { output_index: outputIndex, item: done })
      return done
    }
    case 'reasoning': {
      const done = {
        type: 'reasoning',
        id: `rs_${id}`,
        summary: item.summary.map((text) => ({ type: 'summary_text', text })),
        encrypted_content: `scripted-${id}`,
      }
      sse.send('response.output_item.added', { output_index: outputIndex, item: { ...done, summary: [] } })
      for (const [summaryIndex, text] of item.summary.entries()) {
        sse.send('response.reasoning_summary_part.added', { item_id: done.id, output_index: outputIndex, summary_index: summaryIndex, part: { type: 'summary_text', text: '' } })
        sse.send('response.reasoning_summary_text.delta', { item_id: done.id, output_index: outputIndex, summary_index: summaryIndex, delta: text })
        sse.send('response.reasoning_summary_text.done', { item_id: done.id, output_index: outputIndex, summary_index: summaryIndex, text })
      }
      sse.send('response.output_item.done', { output_index: outputIndex, item: done })
      return done
    }
    case 'exec':
    case 'function_call': {
      const name = item.type === 'exec' ? 'exec_command' : item.name
      const args = item.type === 'exec' ? JSON.stringify({ cmd: item.cmd }) : item.arguments
      const done = { type: 'function_call', id: `fc_${id}`, call_id: item.callId ?? `call_${id}`, name, arguments: args, status: 'completed' }
      sse.send('response.output_item.added', { output_index: outputIndex, item: { ...done, arguments: '', status: 'in_progress' } })
      sse.send('response.function_call_arguments.delta', { item_id: done.id, output_index: outputIndex, delta: args })
      sse.send('response.function_call_arguments.done', { item_id: done.id, output_index: outputIndex, arguments: args })
      sse.send('response.output_item.done', { output_index: outputIndex, item: done })
      return done
    }
  }
}

class SseWriter {
  private sequence = 0
  constructor(private readonly res: ServerResponse) {}

  send(event: string, data: Record<string, unknown>): void {
    if (this.res.destroyed) return
    const payload = { type: event, sequence_number: this.sequence++, ...data }
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`)
  }
}

function chunks(text: string): string[] {
  const parts: string[] = []
  for (let i = 0; i < text.length; i += 16) parts.push(text.slice(i, i + 16))
  return parts.length > 0 ? parts : ['']
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = []
    req.on('data', (chunk: Buffer) => parts.push(chunk))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', () => resolve(Buffer.concat(parts).toString('utf8')))
  })
}

function parseJson(raw: string): unknown {
  try {
    return raw ? (JSON.parse(raw) as unknown) : undefined
  } catch {
    return undefined
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** Fixed, so nothing depends on today's date. */
const SCRIPTED_CREATED_AT = 1_700_000_000
const SCRIPTED_MODEL = 'gpt-scripted'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
