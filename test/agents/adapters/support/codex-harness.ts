import { codexAdapter } from '../../../../src/agents/codex/adapter/codex-adapter.js'
import type { CodexAdapter } from '../../../../src/agents/codex/adapter/codex-adapter.js'
import type { CodexAdapterOptions } from '../../../../src/agents/codex/adapter/codex-options.js'
import { codexBin, createCodexWorkspace } from '../../../support/codex-cli.js'
import type { CodexWorkspace } from '../../../support/codex-cli.js'
import { startOpenAIServer } from '../../../support/openai-server.js'
import type { OpenAIServer, ScriptedResponse } from '../../../support/openai-server.js'
import { descendantsRunning, waitUntil } from './harness.js'

/** The real Codex CLI with a throwaway CODEX_HOME and git work tree, against a scripted Responses server. */
export interface CodexRig {
  server: OpenAIServer
  workspace: CodexWorkspace
  adapter: CodexAdapter
  makeAdapter: (options?: Partial<CodexAdapterOptions>) => CodexAdapter
  close: () => Promise<void>
}

export async function startCodexRig(responses: ScriptedResponse[], options: Partial<CodexAdapterOptions> = {}): Promise<CodexRig> {
  const server = await startOpenAIServer(responses)
  const workspace = createCodexWorkspace({ baseUrl: server.baseUrl })
  const makeAdapter = (more: Partial<CodexAdapterOptions> = {}): CodexAdapter =>
    codexAdapter({
      cwd: workspace.cwd,
      bin: codexBin,
      codexHome: workspace.codexHome,
      // Its own HOME: Codex runs every command as `bash -lc`, and a login profile of the machine's
      // user could slow or change it (issue 35 was found behind one that waited 60 s on a lock).
      env: { SCRIPTED_API_KEY: 'scripted-key', NO_COLOR: '1', HOME: workspace.home },
      graceMs: 1500,
      pollMs: 100,
      ...options,
      ...more,
    })
  return {
    server,
    workspace,
    adapter: makeAdapter(),
    makeAdapter,
    close: async () => {
      await waitUntil(() => descendantsRunning('codex').length === 0, 15_000, 'the Codex processes to exit')
      await server.close()
      workspace.cleanup()
    },
  }
}

/** The user text of a recorded Responses request (the last `input_text` of the last user message). */
export function lastUserInput(body: unknown): string {
  const input = (body as { input?: unknown } | undefined)?.input
  if (!Array.isArray(input)) return ''
  const users = (input as { type?: string; role?: string; content?: { type: string; text?: string }[] }[]).filter((item) => item.type === 'message' && item.role === 'user')
  const parts = users.at(-1)?.content ?? []
  return parts.filter((part) => part.type === 'input_text').map((part) => part.text ?? '').at(-1) ?? ''
}
