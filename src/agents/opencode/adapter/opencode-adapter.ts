import type { AdapterRequest } from '../../../contract/adapter.js'
import type { AgentChat } from '../../../contract/agent-chat.js'
import type { DialogAnswerInput, DialogAnswerResult } from '../../../contract/dialog.js'
import { ChatrailError } from '../../../contract/errors.js'
import type { LiveAgentAdapter } from '../../../contract/live-agent-adapter.js'
import type { StreamChunk, StreamSource } from '../../../contract/stream.js'
import { agentErrorChunk } from '../../process/agent-error-chunk.js'
import { createAsyncQueue } from '../../process/async-queue.js'
import { childEnv } from '../../process/child-env.js'
import { arrayField, recordField, stringField } from '../../process/json-value.js'
import { createRunStateStore } from '../../process/run-state-store.js'
import { staticStreamSource } from '../../process/static-stream-source.js'
import { turnPrompt } from '../../process/turn-prompt.js'
import { conversationOf } from '../../process/request-conversation.js'
import { composeChat } from '../compose-chat.js'
import { authFromEnv, createOpencodeClient } from '../http-client.js'
import type { OpencodeClient } from '../http-client.js'
import { OpencodeServerError } from '../opencode-errors.js'
import { fetchSnapshot } from '../read-chat.js'
import { applyEvent, createSessionModel, resync } from '../session-fold.js'
import { permissionReplyBody, questionReplyBody } from './dialog-reply.js'
import type { OpencodeAdapterOptions } from './opencode-options.js'
import { validateOpencodeOptions } from './opencode-options.js'
import { startOpencodeServer } from './opencode-server.js'
import type { OpencodeServerProcess } from './opencode-server.js'
import { createTurnMapper } from './opencode-turn-mapper.js'

/**
 * OpenCode as the agentic backend of a chat (`chatrail/opencode`). Unlike the Claude Code and Codex
 * adapters (one CLI process per turn), OpenCode is a server: the adapter starts `opencode serve` on
 * a free 127.0.0.1 port on the first turn (or uses `baseUrl`), keeps one OpenCode session for the
 * conversation, and per turn subscribes to `GET /event`, resyncs, sends the newest user message
 * with `POST /session/:id/prompt_async` and streams the session's events as chunks
 * (opencode-turn-mapper.ts) until the session is idle again.
 *
 * Live run state (`agentRunState`) is the reader's own fold of the same events, so permissions and
 * questions show as `pendingDialog` and are answered live through `answerDialog`. `abort()` sends
 * `POST /session/:id/abort`. `dispose()` stops the server the adapter started, its whole process
 * tree. Turns of one adapter run one at a time; running turns never throw (failures are `error`
 * chunks); options are checked here, once.
 */
export type OpencodeAdapter = LiveAgentAdapter & {
  /** The whole chat as the adapter last folded it (messages, usage). */
  agentChat: () => AgentChat | undefined
  /** The OpenCode session id once known (created on the first turn, or `options.sessionId`). */
  agentSessionId: () => string | undefined
  /** The server URL once known (`baseUrl`, or the started server's). */
  serverUrl: () => string | undefined
  /** Stops the started server and its whole process tree; later turns fail with `OPENCODE_DISPOSED`. Idempotent. */
  dispose: () => Promise<void>
}

interface Connection {
  client: OpencodeClient
  process?: OpencodeServerProcess
}

export function opencodeAdapter(options: OpencodeAdapterOptions): OpencodeAdapter {
  validateOpencodeOptions(options)
  const env = childEnv({ OPENCODE_DISABLE_AUTOUPDATE: '1', ...options.env })
  // Only for a server at `baseUrl`: a server the adapter starts has its own random password.
  const auth = options.auth ?? authFromEnv(env)
  const timeoutMs = options.requestTimeoutMs ?? 10_000
  let sessionId = options.sessionId
  const model = createSessionModel(sessionId)
  const store = createRunStateStore()
  let connection: Promise<Connection> | undefined
  let started: OpencodeServerProcess | undefined
  let url = options.baseUrl
  let previousTurn: Promise<void> = Promise.resolve()
  let disposed = false
  let lastChat: AgentChat | undefined
  const liveTurns = new Set<() => void>()

  function publish(): void {
    lastChat = composeChat(model)
    store.set({ agent: 'opencode', state: lastChat.state, status: lastChat.status, ...(lastChat.detail !== undefined ? { detail: lastChat.detail } : {}), ...(lastChat.pendingDialog ? { pendingDialog: lastChat.pendingDialog } : {}) })
  }

  function connect(): Promise<Connection> {
    if (connection) return connection
    const attempt = (async (): Promise<Connection> => {
      if (options.baseUrl !== undefined) return { client: createOpencodeClient({ baseUrl: options.baseUrl, auth: auth ?? null, timeoutMs }) }
      const server = await startOpencodeServer({
        bin: options.bin ?? 'opencode',
        cwd: options.cwd,
        env,
        ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
        ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
        ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
      })
      started = server
      url = server.url
      // A server that dies is started again by the next turn.
      void server.exited.then(() => {
        if (connection === attempt) connection = undefined
      })
      if (disposed) await server.stop()
      return { client: createOpencodeClient({ baseUrl: server.url, auth: server.auth(), timeoutMs }), process: server }
    })()
    connection = attempt
    attempt.catch(() => {
      if (connection === attempt) connection = undefined
    })
    return attempt
  }

  function createSource(request: AdapterRequest): StreamSource {
    const prompt = turnPrompt(request)
    if (prompt.kind === 'continuation') return staticStreamSource([{ type: 'done', metadata: { agent: 'opencode', continuation: true } }])
    if (prompt.kind === 'missing') {
      return staticStreamSource([agentErrorChunk({ code: 'OPENCODE_NO_PROMPT', message: 'The request has no user message with text to send to OpenCode.', hint: 'Send a non-empty user message.' })])
    }
    const promptText = prompt.text
    const queue = createAsyncQueue<StreamChunk>()
    const subscription = new AbortController()
    let aborted = false
    let iterated = false
    let endTurn: () => void = () => undefined
    const turnEnded = new Promise<void>((resolve) => (endTurn = resolve))
    let abortRemote: (() => Promise<void>) | undefined

    const push = (chunk: StreamChunk): void => {
      if (!aborted) queue.push(chunk)
    }

    async function run(): Promise<void> {
      const before = previousTurn
      let finishTurn: () => void = () => undefined
      previousTurn = new Promise((resolve) => (finishTurn = resolve))
      liveTurns.add(endTurn)
      try {
        await before
        if (aborted) return
        if (disposed) throw new ChatrailError({ code: 'OPENCODE_DISPOSED', message: 'This opencodeAdapter was disposed.', hint: 'Make a new adapter for a new conversation.' })
        const { client } = await connect()
        if (sessionId === undefined) {
          const created = await client.post('/session', {})
          const id = stringField(created, 'id')
          if (id === undefined) throw new OpencodeServerError({ code: 'OPENCODE_BAD_RESPONSE', message: 'POST /session answered without a session id.', url: client.baseUrl })
          sessionId = id
          model.sessionId = id
        }
        const id = sessionId
        const path = `/session/${encodeURIComponent(id)}`
        abortRemote = async () => {
          await client.post(`${path}/abort`, {}).catch(() => undefined)
        }
        const mapper = createTurnMapper(id)
        // Subscribe first, then resync, then prompt: no event of this turn can fall in between.
        const { ended } = await client.subscribe((event) => {
          if (applyEvent(model, event)) {
            publish()
            if (event.type === 'permission.asked') void askThroughRecord(client, event.properties, conversationOf(request))
          }
          for (const chunk of mapper.map(event)) push(chunk)
          if (mapper.finished()) endTurn()
        }, subscription.signal)
        void ended.then((lost) => {
          if (lost === undefined || mapper.finished()) return
          model.lost = `lost the OpenCode server: ${lost.message}`
          publish()
          push(agentErrorChunk({ code: 'OPENCODE_SERVER_LOST', message: `The OpenCode server went away mid-turn (${client.baseUrl}).`, hint: 'The session is kept in its database; the next turn starts the server again.' }))
          endTurn()
        })
        resync(model, await fetchSnapshot(client, id))
        model.status = { type: 'busy' }
        publish()
        if (aborted) return
        await client.post(`${path}/prompt_async`, promptBody(promptText, request, options))
        await turnEnded
      } catch (error) {
        push(errorChunkOf(error))
      } finally {
        subscription.abort()
        if (aborted) await abortRemote?.()
        liveTurns.delete(endTurn)
        queue.close()
        finishTurn()
      }
    }

    return {
      async *stream() {
        if (iterated) return
        iterated = true
        if (aborted) return
        void run()
        for (;;) {
          const step = await queue.next()
          if (step.done) return
          yield step.value
        }
      },
      abort() {
        if (aborted) return
        aborted = true
        queue.clear()
        queue.close()
        endTurn()
      },
    }
  }

  /**
   * A permission request decided through its confirmation record (`options.permissions`): the reply
   * goes out once the record is decided, whoever decided it (a card, the server, `answerDialog`).
   */
  async function askThroughRecord(client: OpencodeClient, request: Record<string, unknown>, conversationId: string | undefined): Promise<void> {
    const gate = options.permissions
    const id = stringField(request, 'id')
    if (!gate || id === undefined) return
    const patterns = (arrayField(request, 'patterns') ?? []).filter((item): item is string => typeof item === 'string')
    const verdict = await gate.ask({ requestId: id, toolName: stringField(request, 'permission') ?? 'tool', input: { patterns }, ...(conversationId === undefined ? {} : { conversationId }) })
    // a reply to a request OpenCode no longer holds (answered in its own UI, the turn aborted) is refused there: nothing to undo
    await client.post(`/permission/${encodeURIComponent(id)}/reply`, verdict.allowed ? { reply: 'once' } : { reply: 'reject', message: verdict.reason }).catch(() => undefined)
  }

  async function answerDialog(toolId: string, answer: DialogAnswerInput): Promise<DialogAnswerResult> {
    const permission = model.permissions.get(toolId)
    const question = [...model.questions.values()].find((request) => stringField(recordField(request, 'tool'), 'callID') === toolId || stringField(request, 'id') === toolId)
    if (!permission && !question) {
      const shown = store.getSnapshot()?.pendingDialog
      throw new ChatrailError({
        code: 'NO_PENDING_DIALOG',
        message: `OpenCode has no pending dialog ${toolId}${shown ? ` (the pending one is ${shown.toolId})` : ''}.`,
        hint: 'Answer the dialog shown in getSnapshot().agent.pendingDialog, while it is there.',
      })
    }
    const { client } = await connect()
    const gate = options.permissions
    if (permission && gate) {
      // the dialog's answer decides the request's record; its executor (askThroughRecord) replies, once
      const body = permissionReplyBody(toolId, answer)
      const deciding = gate.answer(toolId, body.reply !== 'reject', gate.confirmations.sessionId, body.message)
      if (deciding) {
        await deciding
        return { delivered: 'live' }
      }
    }
    if (permission) {
      await client.post(`/permission/${encodeURIComponent(toolId)}/reply`, permissionReplyBody(toolId, answer))
    } else if (question) {
      const body = questionReplyBody(toolId, answer, arrayField(question, 'questions')?.length ?? 1)
      await client.post(`/question/${encodeURIComponent(stringField(question, 'id') ?? '')}/reply`, body)
    }
    return { delivered: 'live' }
  }

  return {
    createSource,
    capabilities: { streaming: true, tools: true, reasoning: true, usage: true, extensions: { agent: 'opencode' } },
    agentRunState: { getSnapshot: store.getSnapshot, subscribe: store.subscribe, answerDialog },
    agentChat: () => lastChat,
    agentSessionId: () => sessionId,
    serverUrl: () => url,
    async dispose() {
      disposed = true
      for (const end of [...liveTurns]) end()
      const pending = connection
      connection = undefined
      await pending?.catch(() => undefined)
      await started?.stop()
    },
  }
}

function promptBody(text: string, request: AdapterRequest, options: OpencodeAdapterOptions): Record<string, unknown> {
  const [providerID, ...rest] = options.model?.split('/') ?? []
  return {
    parts: [{ type: 'text', text }],
    ...(options.model !== undefined && providerID ? { model: { providerID, modelID: rest.join('/') } } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
    ...(request.context?.systemPrompt ? { system: request.context.systemPrompt } : {}),
  }
}

function errorChunkOf(error: unknown): StreamChunk {
  if (ChatrailError.isInstance(error)) return agentErrorChunk({ code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) })
  return agentErrorChunk({ code: 'OPENCODE_FAILED', message: `OpenCode turn failed: ${error instanceof Error ? error.message : String(error)}` })
}
