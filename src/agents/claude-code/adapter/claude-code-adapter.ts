import { existsSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { AdapterRequest } from '../../../contract/adapter.js'
import type { StreamSource } from '../../../contract/stream.js'
import type { AgentChat } from '../../../contract/agent-chat.js'
import type { LiveAgentAdapter } from '../../../contract/live-agent-adapter.js'
import { agentErrorChunk } from '../../process/agent-error-chunk.js'
import { childEnv } from '../../process/child-env.js'
import { exitErrorChunk } from '../../process/agent-exit-chunk.js'
import type { AgentIdentity } from '../../process/agent-exit-chunk.js'
import { parseJsonLine, stringField } from '../../process/json-value.js'
import { createLiveRunState, outcomeOfChunk, turnOutcomeOf } from '../../process/live-run-state.js'
import { createProcessStreamSource } from '../../process/process-stream-source.js'
import { staticStreamSource } from '../../process/static-stream-source.js'
import { turnPrompt } from '../../process/turn-prompt.js'
import { conversationOf } from '../../process/request-conversation.js'
import { isAgentId } from '../../runstate/agent-id.js'
import { projectSlug } from '../locate.js'
import { createChatReader } from '../read-chat.js'
import { buildClaudeArgs, claudeUserMessageLine } from './claude-args.js'
import type { ClaudeCodeAdapterOptions, ClaudePermissionRequest } from './claude-code-options.js'
import { validateClaudeCodeOptions } from './claude-code-options.js'
import { controlErrorLine, parseCanUseToolRequest } from './claude-control-request.js'
import { createClaudeLiveDialogs } from './claude-live-dialogs.js'
import { createClaudeStreamMapper } from './claude-stream-mapper.js'

export const CLAUDE_CODE_IDENTITY: AgentIdentity = {
  displayName: 'Claude Code',
  codePrefix: 'CLAUDE_CODE',
  installHint: 'Install it with `npm install -g @anthropic-ai/claude-code` (or as a devDependency of this project).',
}

/**
 * Claude Code as the agentic backend of a chat (`chatrail/claude-code`). Each turn runs
 * `claude -p --output-format stream-json --input-format stream-json --verbose` with the user's
 * newest message on stdin, resuming the same Claude session on later turns (`--resume`, from the
 * `system/init` session id). Chunks: see `createClaudeStreamMapper`.
 *
 * Live run state (`agentRunState`): while a turn runs, the session's transcript is read with the
 * reader's incremental tail; dialogs (AskUserQuestion, ExitPlanMode) arrive as `can_use_tool`
 * control requests, show as `pendingDialog`, and `answerDialog` delivers the answer to the running
 * CLI (`delivered: 'live'`). A dialog left pending by a turn that is over is answered as the text
 * of the next turn (`delivered: 'next-turn'`).
 *
 * Turns of one adapter run one at a time: a turn waits until the previous turn's process is gone.
 * Options are checked here, once: a bad one throws a `ChatrailError` naming it; running turns never
 * throw (failures are `error` chunks).
 */
/**
 * A live agent adapter, plus `agentChat()`: the whole chat the reader last read from the
 * transcript (messages, usage, warnings), for views that show more than the run state; and
 * `agentSessionId()`: the agent's session id (from `system/init`) once known, e.g. to resume it later.
 */
export type ClaudeCodeAdapter = LiveAgentAdapter & { agentChat: () => AgentChat | undefined; agentSessionId: () => string | undefined }

export function claudeCodeAdapter(options: ClaudeCodeAdapterOptions): ClaudeCodeAdapter {
  validateClaudeCodeOptions(options)
  const bin = options.bin ?? 'claude'
  const env = childEnv(options.env)
  const resume = options.resume !== false
  let resumeId = options.sessionId
  let previousTurn: Promise<void> = Promise.resolve()

  // the conversation of the turn running now (turns of one adapter run one at a time): its permission requests are that conversation's
  let turnConversation: string | undefined
  const onPermissionRequest = options.onPermissionRequest
  const dialogs = createClaudeLiveDialogs({
    ...(onPermissionRequest ? { onPermissionRequest: (request: ClaudePermissionRequest) => onPermissionRequest(turnConversation === undefined ? request : { ...request, conversationId: turnConversation }) } : {}),
    onChange: () => live.changed(),
  })
  const live = createLiveRunState({
    agent: 'claude-code',
    pollMs: options.pollMs ?? 200,
    openReader: (sessionId) => {
      // Never a path from an id that is not a UUID (`../../x` would leave ~/.claude).
      if (!isAgentId(sessionId)) return undefined
      const path = transcriptPath(options.cwd, env, sessionId)
      return existsSync(path) ? createChatReader({ runId: sessionId, runtimeDir: '', transcriptPath: path }) : undefined
    },
    overlay: (snapshot) => dialogs.overlay(snapshot),
    answerDialog: (toolId, answer) => dialogs.answer(toolId, answer, live.source.getSnapshot()),
  })

  function createSource(request: AdapterRequest): StreamSource {
    const prompt = turnPrompt(request)
    if (prompt.kind === 'continuation') {
      // Claude Code already ran its tools and answered; a tool-loop follow-up has nothing to add.
      return staticStreamSource([{ type: 'done', metadata: { agent: 'claude-code', continuation: true } }])
    }
    if (prompt.kind === 'missing') {
      return staticStreamSource([
        agentErrorChunk({ code: 'CLAUDE_CODE_NO_PROMPT', message: 'The request has no user message with text to send to Claude Code.', hint: 'Send a non-empty user message.' }),
      ])
    }
    const mapper = createClaudeStreamMapper()
    const systemPrompt = request.context?.systemPrompt
    let finishTurn: () => void = () => undefined

    return createProcessStreamSource({
      async prepare() {
        const before = previousTurn
        previousTurn = new Promise((resolve) => (finishTurn = resolve))
        await before
        turnConversation = conversationOf(request)
        live.turnStarted()
      },
      command: () => ({
        bin,
        args: buildClaudeArgs({
          ...(resumeId !== undefined ? { resumeId } : {}),
          ...(options.model !== undefined ? { model: options.model } : {}),
          ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
          ...(options.allowedTools !== undefined ? { allowedTools: options.allowedTools } : {}),
          includePartialMessages: options.includePartialMessages !== false,
          ...(systemPrompt !== undefined ? { appendSystemPrompt: systemPrompt } : {}),
          ...(options.extraArgs !== undefined ? { extraArgs: options.extraArgs } : {}),
        }),
        cwd: options.cwd,
        env,
        stdin: [claudeUserMessageLine(prompt.text)],
        // stdin stays open for control responses (dialog answers); it is closed after `result`.
        closeStdin: false,
      }),
      handlers: {
        onLine(line, child) {
          const event = parseJsonLine(line)
          if (!event) return []
          const control = parseCanUseToolRequest(event)
          if (control) {
            dialogs.request(control, (reply) => child.writeLine(reply))
            return []
          }
          if (event.type === 'control_request') {
            const requestId = stringField(event, 'request_id')
            if (requestId !== undefined) child.writeLine(controlErrorLine(requestId, 'chatrail does not handle this control request.'))
            return []
          }
          if (event.type === 'control_cancel_request') {
            const requestId = stringField(event, 'request_id')
            if (requestId !== undefined) dialogs.cancel(requestId)
            return []
          }
          const chunks = mapper.map(event)
          const sessionId = mapper.sessionId()
          if (sessionId !== undefined) {
            live.runKnown(sessionId)
            resumeId = resume ? sessionId : undefined
          }
          return chunks
        },
        onExit: (exit) => [exitErrorChunk(exit, CLAUDE_CODE_IDENTITY, bin)],
        onTerminal(child, chunk) {
          child.endInput()
          live.turnFinishing(outcomeOfChunk(chunk))
        },
      },
      onProcess(event) {
        if (event.type !== 'settled') return
        dialogs.clear()
        void live.turnEnded(turnOutcomeOf(event)).finally(finishTurn)
      },
      ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
    })
  }

  return {
    createSource,
    capabilities: { streaming: true, tools: true, reasoning: true, usage: true, extensions: { agent: 'claude-code' } },
    agentRunState: live.source,
    agentChat: live.lastChat,
    agentSessionId: live.runId,
  }
}

/** `$CLAUDE_CONFIG_DIR/projects/<slug>/<id>.jsonl`, else under `$HOME/.claude`; the slug is of the real cwd, as the CLI sees it. */
function transcriptPath(cwd: string, env: NodeJS.ProcessEnv, sessionId: string): string {
  const configDir = env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.claude')
  let realCwd = cwd
  try {
    realCwd = realpathSync(cwd)
  } catch {
    // a cwd that does not exist fails the spawn; the path is then never read
  }
  return join(configDir, 'projects', projectSlug(realCwd), `${sessionId}.jsonl`)
}
