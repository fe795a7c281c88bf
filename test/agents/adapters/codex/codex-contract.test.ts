import { afterAll, beforeAll } from 'vitest'
import { codexAdapter } from '../../../../src/agents/codex/adapter/codex-adapter.js'
import { runAdapterContract } from '../../../../src/testing/vitest.js'
import { codexBin, createCodexWorkspace } from '../../../support/codex-cli.js'
import type { CodexWorkspace } from '../../../support/codex-cli.js'
import { respond, say, startOpenAIServer } from '../../../support/openai-server.js'
import type { OpenAIServer } from '../../../support/openai-server.js'

/**
 * `runAdapterContract` against the real Codex CLI and the scripted Responses server. The script is
 * topped up before every factory so each turn gets a short text; the failing factory's server
 * answers HTTP 400. A1's laziness is observed as requests reaching the model server.
 */

let server: OpenAIServer
let failingServer: OpenAIServer
let workspace: CodexWorkspace
let failingWorkspace: CodexWorkspace

beforeAll(async () => {
  server = await startOpenAIServer()
  failingServer = await startOpenAIServer()
  workspace = createCodexWorkspace({ baseUrl: server.baseUrl })
  failingWorkspace = createCodexWorkspace({ baseUrl: failingServer.baseUrl })
})

afterAll(async () => {
  await server.close()
  await failingServer.close()
  workspace.cleanup()
  failingWorkspace.cleanup()
})

runAdapterContract(
  'codexAdapter (real CLI, scripted server)',
  () => {
    for (let i = 0; i < 4; i += 1) server.push(respond(say('Hello from the contract.')))
    return codexAdapter({ cwd: workspace.cwd, bin: codexBin, codexHome: workspace.codexHome, env: { SCRIPTED_API_KEY: 'scripted-key' }, graceMs: 1000 })
  },
  {
    workCount: () => server.requests.length,
    failing: () => {
      // request_max_retries = 1 in the workspace config: the CLI asks twice before it gives up.
      failingServer.push({ type: 'http_error', status: 400, message: 'the scripted model refuses' }, { type: 'http_error', status: 400, message: 'the scripted model refuses' })
      return { factory: codexAdapter({ cwd: failingWorkspace.cwd, bin: codexBin, codexHome: failingWorkspace.codexHome, env: { SCRIPTED_API_KEY: 'scripted-key' } }) }
    },
    timeoutMs: 30_000,
  },
)
