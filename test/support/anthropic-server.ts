import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A scripted Anthropic Messages API on 127.0.0.1, for driving the real Claude Code CLI offline.
 *
 * Main requests (those that carry `tools`) play the scripted turns in order; side requests (title
 * generation, summaries: no tools) get a short text. Every turn streams real SSE:
 * `message_start`, per block `content_block_start` / `content_block_delta` (`text_delta`,
 * `thinking_delta` or `input_json_delta`) / `content_block_stop`, `message_delta` with the
 * stop reason, `message_stop`. A turn can instead answer with an HTTP error, or stream part of
 * its text and then hang until the client goes away (to interrupt it).
 */

export type ScriptedBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string }

export type ScriptedTurn =
  | { content: ScriptedBlock[]; stopReason?: 'end_turn' | 'tool_use' | 'max_tokens'; delayMs?: number }
  | { error: { status: number; type: string; message: string }; repeat?: number }
  /** Streams `text` as a first delta, then never finishes: the client must abort. */
  | { hang: { text: string } }

/** A turn, or a function of the request that produced it (e.g. to read a path from the prompt). */
export type ScriptStep = ScriptedTurn | ((request: RecordedRequest) => ScriptedTurn)

export interface RecordedRequest {
  path: string
  side: boolean
  body: Record<string, unknown>
}

export interface AnthropicServer {
  url: string
  port: number
  requests: RecordedRequest[]
  /** Main turns not played yet. */
  remaining: () => number
  /** Resolves when the next main request arrives (for pacing a pty). */
  nextMainRequest: () => Promise<RecordedRequest>
  close: () => Promise<void>
}

export interface AnthropicServerOptions {
  turns: ScriptStep[]
  /** Text for side requests (default "Chat"). */
  sideText?: string
  /** What to play when the script is exhausted (default a short end_turn text). */
  fallback?: ScriptedTurn
  model?: string
}

export async function startAnthropicServer(options: AnthropicServerOptions): Promise<AnthropicServer> {
  const turns = [...options.turns]
  const model = options.model ?? 'claude-sonnet-4-5-20250929'
  const requests: RecordedRequest[] = []
  const waiters: Array<(request: RecordedRequest) => void> = []
  const open = new Set<ServerResponse>()
  let messageCounter = 0
  let toolCounter = 0
  let errorRepeats = 0

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }))
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/'
    const raw = await readBody(req)
    if (req.method !== 'POST' || !path.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${path}` } }))
      return
    }
    const body = parseObject(raw)
    if (path.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ input_tokens: 42 }))
      return
    }
    const side = !Array.isArray(body.tools) || body.tools.length === 0
    const recorded: RecordedRequest = { path, side, body }
    requests.push(recorded)
    if (side) {
      await streamTurn(res, { content: [{ type: 'text', text: options.sideText ?? 'Chat' }] }, body.stream === true)
      return
    }
    waiters.splice(0).forEach((resolve) => resolve(recorded))
    const turn = nextTurn(recorded)
    if ('error' in turn) {
      res.writeHead(turn.error.status, { 'content-type': 'application/json', 'x-should-retry': 'false' })
      res.end(JSON.stringify({ type: 'error', error: { type: turn.error.type, message: turn.error.message } }))
      return
    }
    if ('hang' in turn) {
      open.add(res)
      res.on('close', () => open.delete(res))
      writeSseHead(res)
      sse(res, 'message_start', messageStart(nextMessageId(), model))
      sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
      sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.hang.text } })
      return
    }
    await streamTurn(res, turn, body.stream !== false)
  }

  function nextTurn(request: RecordedRequest): ScriptedTurn {
    const step = turns[0]
    const head = typeof step === 'function' ? step(request) : step
    if (head && 'error' in head) {
      errorRepeats += 1
      if (errorRepeats >= (head.repeat ?? 1)) {
        turns.shift()
        errorRepeats = 0
      }
      return head
    }
    turns.shift()
    return head ?? options.fallback ?? { content: [{ type: 'text', text: 'Done.' }] }
  }

  function nextMessageId(): string {
    messageCounter += 1
    return `msg_scripted_${String(messageCounter).padStart(4, '0')}`
  }

  async function streamTurn(res: ServerResponse, turn: { content: ScriptedBlock[]; stopReason?: string; delayMs?: number }, stream: boolean): Promise<void> {
    const id = nextMessageId()
    const blocks = turn.content.map((block) => (block.type === 'tool_use' ? { ...block, id: block.id ?? nextToolId() } : block))
    const stopReason = turn.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn')
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ ...messageStart(id, model).message, content: blocks.map(finalBlock), stop_reason: stopReason, usage: { input_tokens: 10, output_tokens: 5 } }))
      return
    }
    writeSseHead(res)
    sse(res, 'message_start', messageStart(id, model))
    for (const [index, block] of blocks.entries()) {
      if (turn.delayMs) await sleep(turn.delayMs)
      if (block.type === 'text') {
        sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
        for (const piece of pieces(block.text)) sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } })
      } else if (block.type === 'thinking') {
        sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } })
        sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } })
        sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } })
      } else {
        sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } })
        for (const piece of pieces(JSON.stringify(block.input))) sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } })
      }
      sse(res, 'content_block_stop', { type: 'content_block_stop', index })
    }
    sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 12 } })
    sse(res, 'message_stop', { type: 'message_stop' })
    res.end()
  }

  function nextToolId(): string {
    toolCounter += 1
    return `toolu_scripted_${String(toolCounter).padStart(4, '0')}`
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    remaining: () => turns.length,
    nextMainRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: async () => {
      for (const res of open) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function messageStart(id: string, model: string): { type: 'message_start'; message: Record<string, unknown> } {
  return {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  }
}

function finalBlock(block: ScriptedBlock): Record<string, unknown> {
  return block.type === 'thinking' ? { ...block, signature: 'c2lnbmF0dXJl' } : { ...block }
}

function writeSseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': 'req_scripted' })
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

/** Splits text into two deltas so clients see real streaming, not one blob. */
function pieces(text: string): string[] {
  if (text.length < 2) return [text]
  const mid = Math.ceil(text.length / 2)
  return [text.slice(0, mid), text.slice(mid)]
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parseObject(raw: string): Record<string, unknown> {
  if (raw === '') return {}
  try {
    const value: unknown = JSON.parse(raw)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
