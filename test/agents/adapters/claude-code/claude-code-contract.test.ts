import { afterAll, beforeAll } from 'vitest'
import { claudeCodeAdapter } from '../../../../src/agents/claude-code/adapter/claude-code-adapter.js'
import { runAdapterContract } from '../../../../src/testing/vitest.js'
import { startAnthropicServer } from '../../../support/anthropic-server.js'
import type { AnthropicServer } from '../../../support/anthropic-server.js'
import { CLAUDE_BIN, claudeEnv, makeClaudeHome } from '../../../support/claude-cli.js'
import type { ClaudeHome } from '../../../support/claude-cli.js'

/**
 * `runAdapterContract` against the real Claude Code CLI and the scripted Anthropic server. Every
 * main request answers with a short text (the server's fallback), except in the failing factory,
 * whose server answers HTTP 400. A1's laziness is observed as requests reaching the model server.
 */

let server: AnthropicServer
let failingServer: AnthropicServer
let home: ClaudeHome

beforeAll(async () => {
  server = await startAnthropicServer({ turns: [], fallback: { content: [{ type: 'text', text: 'Hello from the contract.' }] } })
  failingServer = await startAnthropicServer({ turns: [], fallback: { error: { status: 400, type: 'invalid_request_error', message: 'the scripted model refuses' } } })
  home = makeClaudeHome('chatrail-cc-contract-')
})

afterAll(async () => {
  await server.close()
  await failingServer.close()
  home.cleanup()
})

runAdapterContract('claudeCodeAdapter (real CLI, scripted server)', () => claudeCodeAdapter({ cwd: home.cwd, bin: CLAUDE_BIN, env: claudeEnv(home.home, server.url), graceMs: 1000 }), {
  workCount: () => server.requests.length,
  failing: () => ({ factory: claudeCodeAdapter({ cwd: home.cwd, bin: CLAUDE_BIN, env: claudeEnv(home.home, failingServer.url) }) }),
  timeoutMs: 45_000,
})
