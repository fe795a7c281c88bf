import { homedir } from 'node:os'
import { join } from 'node:path'
import type { AdapterRequest } from '../../../contract/adapter.js'
import type { StreamSource, TokenUsage } from '../../../contract/stream.js'
import type { AgentChat } from '../../../contract/agent-chat.js'
import type { LiveAgentAdapter } from '../../../contract/live-agent-adapter.js'
import { agentErrorChunk } from '../../process/agent-error-chunk.js'
import { exitErrorChunk } from '../../process/agent-exit-chunk.js'
import type { AgentIdentity } from '../../process/agent-exit-chunk.js'
import { childEnv } from '../../process/child-env.js'
import { parseJsonLine } from '../../process/json-value.js'
import { createLiveRunState, outcomeOfChunk, turnOutcomeOf } from '../../process/live-run-state.js'
import { createProcessStreamSource } from '../../process/process-stream-source.js'
import { staticStreamSource } from '../../process/static-stream-source.js'
import { turnPrompt } from '../../process/turn-prompt.js'
import { createRolloutTail } from '../rollout-tail.js'
import { buildCodexArgs } from './codex-args.js'
import type { CodexAdapterOptions } from './codex-options.js'
import { validateCodexOptions } from './codex-options.js'
import { createCodexStreamMapper } from './codex-stream-mapper.js'
import { findRolloutByThread } from './rollout-by-thread.js'

export const CODEX_IDENTITY: AgentIdentity = {
  displayName: 'Codex',
  codePrefix: 'CODEX',
  installHint: 'Install it with `npm install -g @openai/codex` (or as a devDependency of this project).',
}

/**
 * Codex as the agentic backend of a chat (`chatrail/codex`). The first turn runs
 * `codex exec --json -`, later turns `codex exec --json resume <thread_id> -` (the id from
 * `thread.started`), always with the user's newest message on stdin. Chunks: see
 * `createCodexStreamMapper`. `turn.completed` reports the thread's running token totals, so the
 * adapter reports each turn's difference.
 *
 * Live run state (`agentRunState`): while a turn runs, the thread's rollout (found by its id under
 * `CODEX_HOME/sessions`) is read with the reader's incremental tail. `codex exec` has no dialogs
 * (approvals are forced to `never` in headless mode), so there is no `answerDialog`.
 *
 * Turns of one adapter run one at a time. Options are checked here, once; running turns never
 * throw (failures are `error` chunks).
 */
/**
 * A live agent adapter, plus `agentChat()`: the whole chat the reader last read from the
 * transcript (messages, usage, warnings), for views that show more than the run state; and
 * `agentSessionId()`: the agent's thread id (from `thread.started`) once known, e.g. to resume it later.
 */
export type CodexAdapter = LiveAgentAdapter & { agentChat: () => AgentChat | undefined; agentSessionId: () => string | undefined }

export function codexAdapter(options: CodexAdapterOptions): CodexAdapter {
  validateCodexOptions(options)
  const bin = options.bin ?? 'codex'
  const env = childEnv({ ...options.env, ...(options.codexHome !== undefined ? { CODEX_HOME: options.codexHome } : {}) })
  const codexHome = env.CODEX_HOME ?? join(env.HOME ?? homedir(), '.codex')
  const resume = options.resume !== false
  let threadId = options.threadId
  let threadUsage: TokenUsage | undefined
  let turnNumber = 0
  let previousTurn: Promise<void> = Promise.resolve()

  const live = createLiveRunState({
    agent: 'codex',
    pollMs: options.pollMs ?? 200,
    toolsEndWithProcess: true,
    openReader: (id) => {
      const path = findRolloutByThread(codexHome, id)
      return path === undefined ? undefined : createRolloutTail(path)
    },
  })

  function createSource(request: AdapterRequest): StreamSource {
    const prompt = turnPrompt(request)
    if (prompt.kind === 'continuation') {
      // Codex already ran its tools and answered; a tool-loop follow-up has nothing to add.
      return staticStreamSource([{ type: 'done', metadata: { agent: 'codex', continuation: true } }])
    }
    if (prompt.kind === 'missing') {
      return staticStreamSource([
        agentErrorChunk({ code: 'CODEX_NO_PROMPT', message: 'The request has no user message with text to send to Codex.', hint: 'Send a non-empty user message.' }),
      ])
    }
    let finishTurn: () => void = () => undefined
    let mapper = createCodexStreamMapper()
    let resumeThreadId: string | undefined

    return createProcessStreamSource({
      async prepare() {
        const before = previousTurn
        previousTurn = new Promise((resolve) => (finishTurn = resolve))
        await before
        turnNumber += 1
        resumeThreadId = threadId
        mapper = createCodexStreamMapper({
          turn: turnNumber,
          resumed: resumeThreadId !== undefined,
          ...(resumeThreadId !== undefined && threadUsage !== undefined ? { usageBaseline: threadUsage } : {}),
        })
        if (resumeThreadId !== undefined) live.runKnown(resumeThreadId)
        live.turnStarted()
      },
      command: () => ({
        bin,
        args: buildCodexArgs({
          ...(resumeThreadId !== undefined ? { resumeThreadId } : {}),
          ...(options.model !== undefined ? { model: options.model } : {}),
          ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
          ...(options.skipGitRepoCheck ? { skipGitRepoCheck: true } : {}),
          ...(options.extraArgs !== undefined ? { extraArgs: options.extraArgs } : {}),
        }),
        cwd: options.cwd,
        env,
        stdinText: prompt.text,
      }),
      handlers: {
        onLine(line) {
          const event = parseJsonLine(line)
          if (!event) return []
          const chunks = mapper.map(event)
          const started = mapper.threadId()
          if (started !== undefined && started !== threadId) {
            // A new thread: earlier totals belong to another one.
            if (threadId !== undefined) threadUsage = undefined
            threadId = resume ? started : undefined
            live.runKnown(started)
          }
          if (mapper.finished()) threadUsage = mapper.threadUsage() ?? threadUsage
          return chunks
        },
        onExit: (exit) => [exitErrorChunk(exit, CODEX_IDENTITY, bin)],
        onTerminal: (_child, chunk) => live.turnFinishing(outcomeOfChunk(chunk)),
      },
      onProcess(event) {
        if (event.type !== 'settled') return
        void live.turnEnded(turnOutcomeOf(event)).finally(finishTurn)
      },
      ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
    })
  }

  return {
    createSource,
    capabilities: { streaming: true, tools: true, reasoning: true, usage: true, extensions: { agent: 'codex' } },
    agentRunState: live.source,
    agentChat: live.lastChat,
    agentSessionId: live.runId,
  }
}
