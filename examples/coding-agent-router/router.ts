import { claudeCodeAdapter } from '../../src/agents/claude-code/index.js'
import type { ClaudeCodeAdapter, ClaudeCodeAdapterOptions } from '../../src/agents/claude-code/index.js'
import { codexAdapter } from '../../src/agents/codex/index.js'
import type { CodexAdapter, CodexAdapterOptions } from '../../src/agents/codex/index.js'
import { commandRoute, defineChat } from '../../src/index.js'
import type { ChatDefinition } from '../../src/index.js'
import { gitDiff } from './git-diff.js'

/**
 * A coding-agent router: `/help`, `/status` and `/diff` are answered deterministically (no model
 * call, traced as `deterministic`); everything else goes to a real coding agent — Claude Code, or
 * Codex with `agent: 'codex'` — whose run state `/status` reports.
 */

export type RouterAgent = 'claude-code' | 'codex'

export interface RouterOptions {
  agent: RouterAgent
  /** The project the agent works in; `/diff` diffs it. */
  cwd: string
  /** Extra adapter options (e.g. `bin`, `env`, `allowedTools`). */
  claudeCode?: Partial<ClaudeCodeAdapterOptions>
  codex?: Partial<CodexAdapterOptions>
}

export interface CodingAgentRouter {
  definition: ChatDefinition
  adapter: ClaudeCodeAdapter | CodexAdapter
  agentName: string
}

export const HELP_TEXT = [
  'Commands (answered here, without a model):',
  '  /help    this list',
  "  /status  the agent's run state",
  '  /diff    `git diff` of the project',
  'Anything else goes to the coding agent.',
].join('\n')

export function createCodingAgentRouter(options: RouterOptions): CodingAgentRouter {
  const adapter = options.agent === 'codex' ? codexAdapter({ cwd: options.cwd, ...options.codex }) : claudeCodeAdapter({ cwd: options.cwd, ...options.claudeCode })
  const agentName = options.agent === 'codex' ? 'Codex' : 'Claude Code'
  const definition = defineChat({
    id: 'coding-agent-router',
    chat: { adapter },
    conversation: {
      initial: 'ready',
      states: { ready: { on: { help: 'ready', status: 'ready', diff: 'ready' }, description: 'Waiting for a command or a task.' } },
      routes: [
        commandRoute({ id: 'help', command: '/help', event: 'help', response: HELP_TEXT }),
        commandRoute({ id: 'status', command: '/status', event: 'status', response: () => statusText(agentName, adapter) }),
        commandRoute({
          id: 'diff',
          command: '/diff',
          event: 'diff',
          response: async () => {
            const result = await gitDiff(options.cwd)
            if (!result.ok) return `git diff failed: ${result.reason}`
            return result.diff === '' ? 'No changes.' : `\`\`\`diff\n${result.diff.trimEnd()}\n\`\`\``
          },
        }),
      ],
    },
  })
  return { definition, adapter, agentName }
}

/** One line per fact: the run state, what it waits for, and the session the agent resumes. */
export function statusText(agentName: string, adapter: ClaudeCodeAdapter | CodexAdapter): string {
  const snapshot = adapter.agentRunState.getSnapshot()
  if (!snapshot) return `${agentName}: not started yet.`
  const lines = [`${agentName}: ${snapshot.state} (${snapshot.status})${snapshot.detail ? ` — ${snapshot.detail}` : ''}`]
  if (snapshot.pendingDialog) lines.push(`Waiting for your answer: ${snapshot.pendingDialog.prompt}`)
  const sessionId = adapter.agentSessionId()
  if (sessionId !== undefined) lines.push(`Session: ${sessionId}`)
  const chat = adapter.agentChat()
  if (chat?.usage) lines.push(`Tokens: ${chat.usage.inputTokens} in, ${chat.usage.outputTokens} out`)
  return lines.join('\n')
}
