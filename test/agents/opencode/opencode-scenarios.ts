import { startAnthropicServer } from '../../support/anthropic-server.js'
import type { AnthropicServer, RecordedRequest, ScriptedTurn } from '../../support/anthropic-server.js'
import { makeOpencodeHome, serveOpencode } from '../../support/opencode-cli.js'
import type { OpencodeHome } from '../../support/opencode-cli.js'
import { createOpencodeClient } from '../../../src/agents/opencode/http-client.js'
import type { OpencodeAuth, OpencodeClient } from '../../../src/agents/opencode/http-client.js'
import type { OpencodeServerProcess } from '../../../src/agents/opencode/adapter/opencode-server.js'
import type { OpencodeEvent } from '../../../src/agents/opencode/sse-parser.js'

/**
 * The real-binary scenarios, shared by the live tests and the fixture recorder: one scripted
 * Anthropic server whose every main request is answered by `scriptFor` (chosen by a tag in the
 * prompt, so one server serves every scenario), one real `opencode serve` with `bash: "ask"` and
 * the question tool allowed, and a driver that sends a prompt over HTTP and reacts to what the
 * server asks, recording the event stream.
 */

export const TAGS = {
  complete: '[complete]',
  bash: '[bash]',
  question: '[question]',
  hang: '[hang]',
  fail: '[fail]',
} as const

export const COMPLETE_TEXT = 'Hello from OpenCode — café ✓'
export const BASH_MARKER = 'chatrail-ran-this'
export const QUESTION = { question: 'Which color should the button be?', header: 'Color', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }

/**
 * The scripted model: decides each main turn from the newest prompt's tag and whether a tool
 * already ran since that prompt (a continued session carries earlier turns' tags in its history).
 */
export function scriptFor(request: RecordedRequest): ScriptedTurn {
  const messages = Array.isArray(request.body.messages) ? (request.body.messages as unknown[]) : []
  const isPrompt = (message: unknown): boolean => {
    const record = message as { role?: unknown; content?: unknown }
    if (record.role !== 'user') return false
    if (typeof record.content === 'string') return true
    return Array.isArray(record.content) && record.content.some((block) => (block as { type?: unknown }).type === 'text')
  }
  const at = messages.map(isPrompt).lastIndexOf(true)
  const text = JSON.stringify(messages[at] ?? '')
  const toolResult = /"tool_result"/.test(JSON.stringify(messages.slice(at + 1)))
  if (text.includes(TAGS.bash)) {
    if (!toolResult) return { content: [{ type: 'tool_use', name: 'bash', input: { command: `echo ${BASH_MARKER}`, description: 'Print a marker' } }] }
    return { content: [{ type: 'text', text: 'The command finished.' }] }
  }
  if (text.includes(TAGS.question)) {
    if (!toolResult) return { content: [{ type: 'tool_use', name: 'question', input: { questions: [QUESTION] } }] }
    return { content: [{ type: 'text', text: 'Thanks for answering.' }] }
  }
  if (text.includes(TAGS.hang)) return { hang: { text: 'Working on it' } }
  if (text.includes(TAGS.fail)) return { error: { status: 400, type: 'invalid_request_error', message: 'the scripted model refuses' } }
  return { content: [{ type: 'text', text: COMPLETE_TEXT }] }
}

export interface OpencodeRig {
  model: AnthropicServer
  home: OpencodeHome
  server: OpencodeServerProcess
  /** The server's own random password (every server chatrail starts has one). */
  auth: OpencodeAuth
  client: OpencodeClient
  close: () => Promise<void>
}

export async function startRig(): Promise<OpencodeRig> {
  const model = await startAnthropicServer({ turns: Array.from({ length: 200 }, () => scriptFor), sideText: 'Scripted title' })
  const home = makeOpencodeHome({ modelUrl: model.url, permission: { bash: 'ask', question: 'allow' } })
  const server = await serveOpencode(home)
  const auth = server.auth()
  const client = createOpencodeClient({ baseUrl: server.url, auth })
  return {
    model,
    home,
    server,
    auth,
    client,
    close: async () => {
      await server.stop()
      await model.close()
      home.cleanup()
    },
  }
}

export interface TurnRecording {
  sessionId: string
  /** Every event of the session (and `server.*`), as the SSE data objects. */
  events: OpencodeEvent[]
  /** Reads taken while the server waited on a request: messages, status, permissions, questions. */
  pending?: { messages: unknown; status: unknown; permissions: unknown; questions: unknown }
  /** `GET /session/:id/message` once the turn is over. */
  messages: unknown
}

export interface DriveOptions {
  prompt: string
  /** Called once per permission or question the server asks; replies through `client`. */
  onAsk?: (event: OpencodeEvent, client: OpencodeClient) => Promise<void>
  /** Called once the assistant starts streaming text (for abort tests). */
  onStreaming?: (sessionId: string, client: OpencodeClient) => Promise<void>
  /** Stop waiting when this is true of an event (default: the session went idle after busy). */
  until?: (event: OpencodeEvent) => boolean
  timeoutMs?: number
}

/** A new session, one prompt, the events until it is over; bounded by `timeoutMs` (default 60 s). */
export async function driveTurn(rig: OpencodeRig, options: DriveOptions): Promise<TurnRecording> {
  const created = (await rig.client.post('/session', {})) as { id: string }
  const sessionId = created.id
  const events: OpencodeEvent[] = []
  const controller = new AbortController()
  let busy = false
  let pending: TurnRecording['pending']
  let streamingSeen = false
  let finish: () => void = () => undefined
  let fail: (error: Error) => void = () => undefined
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  const until = options.until ?? ((event: OpencodeEvent) => busy && event.type === 'session.status' && (event.properties.status as { type?: string } | undefined)?.type === 'idle')
  const { ended } = await rig.client.subscribe((event) => {
    const mine = event.properties.sessionID === sessionId
    if (!mine && !event.type.startsWith('server.')) return
    events.push(event)
    if (event.type === 'session.status' && (event.properties.status as { type?: string } | undefined)?.type === 'busy') busy = true
    if (event.type === 'permission.asked' || event.type === 'question.asked') {
      void (async () => {
        pending ??= await readPending(rig.client, sessionId)
        await options.onAsk?.(event, rig.client)
      })().catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))))
    }
    if (!streamingSeen && event.type === 'message.part.delta' && options.onStreaming) {
      streamingSeen = true
      void options.onStreaming(sessionId, rig.client).catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))))
    }
    if (until(event)) finish()
  }, controller.signal)
  void ended.then((lost) => lost && fail(lost))
  const timer = setTimeout(() => fail(new Error(`scenario ${options.prompt} did not finish within ${options.timeoutMs ?? 60_000} ms`)), options.timeoutMs ?? 60_000)
  try {
    await rig.client.post(`/session/${sessionId}/prompt_async`, { parts: [{ type: 'text', text: options.prompt }] })
    await done
  } finally {
    clearTimeout(timer)
    controller.abort()
  }
  const messages = await rig.client.get(`/session/${sessionId}/message`)
  return { sessionId, events, ...(pending ? { pending } : {}), messages }
}

async function readPending(client: OpencodeClient, sessionId: string): Promise<NonNullable<TurnRecording['pending']>> {
  const [messages, status, permissions, questions] = await Promise.all([
    client.get(`/session/${sessionId}/message`),
    client.get('/session/status'),
    client.get('/permission'),
    client.get('/question'),
  ])
  return { messages, status, permissions, questions }
}

export const replyPermission = (reply: 'once' | 'always' | 'reject') => async (event: OpencodeEvent, client: OpencodeClient): Promise<void> => {
  await client.post(`/permission/${String(event.properties.id)}/reply`, { reply })
}

export const answerQuestion = (answers: string[][]) => async (event: OpencodeEvent, client: OpencodeClient): Promise<void> => {
  await client.post(`/question/${String(event.properties.id)}/reply`, { answers })
}
