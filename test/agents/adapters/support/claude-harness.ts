import { claudeCodeAdapter } from '../../../../src/agents/claude-code/adapter/claude-code-adapter.js'
import type { ClaudeCodeAdapter } from '../../../../src/agents/claude-code/adapter/claude-code-adapter.js'
import type { ClaudeCodeAdapterOptions } from '../../../../src/agents/claude-code/adapter/claude-code-options.js'
import { startAnthropicServer } from '../../../support/anthropic-server.js'
import type { AnthropicServer, ScriptedTurn } from '../../../support/anthropic-server.js'
import { CLAUDE_BIN, claudeEnv, makeClaudeHome } from '../../../support/claude-cli.js'
import type { ClaudeHome } from '../../../support/claude-cli.js'
import { descendantsRunning, waitUntil } from './harness.js'

/** The real Claude Code CLI in a throwaway HOME, against a scripted Anthropic server. */
export interface ClaudeRig {
  server: AnthropicServer
  home: ClaudeHome
  adapter: ClaudeCodeAdapter
  /** Another adapter on the same HOME and server (e.g. to resume a session from outside). */
  makeAdapter: (options?: Partial<ClaudeCodeAdapterOptions>) => ClaudeCodeAdapter
  close: () => Promise<void>
}

export async function startClaudeRig(turns: ScriptedTurn[], options: Partial<ClaudeCodeAdapterOptions> = {}): Promise<ClaudeRig> {
  const server = await startAnthropicServer({ turns })
  const home = makeClaudeHome('chatrail-cc-adapter-')
  const makeAdapter = (more: Partial<ClaudeCodeAdapterOptions> = {}): ClaudeCodeAdapter =>
    claudeCodeAdapter({ cwd: home.cwd, bin: CLAUDE_BIN, env: claudeEnv(home.home, server.url), graceMs: 1500, pollMs: 100, ...options, ...more })
  return {
    server,
    home,
    adapter: makeAdapter(),
    makeAdapter,
    close: async () => {
      // A turn's stream ends at its terminal chunk; the CLI may still be flushing its transcript.
      await waitUntil(() => descendantsRunning(CLAUDE_BIN).length === 0 && descendantsRunning('claude').length === 0, 15_000, 'the Claude Code processes to exit')
      await server.close()
      home.cleanup()
    },
  }
}

/** The text parts of the last user message of a recorded main request (what the CLI sent the model). */
export function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[]
  const last = [...messages].reverse().find((message) => message.role === 'user')
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  return (last.content as { type: string; text?: string }[])
    .filter((part) => part.type === 'text' && !part.text?.startsWith('<system-reminder>'))
    .map((part) => part.text ?? '')
    .join('')
}
