import { afterAll, beforeAll } from 'vitest'
import { opencodeAdapter } from '../../../../src/agents/opencode/adapter/opencode-adapter.js'
import type { OpencodeAdapter } from '../../../../src/agents/opencode/adapter/opencode-adapter.js'
import { freePort } from '../../../../src/agents/opencode/adapter/opencode-server.js'
import { runAdapterContract } from '../../../../src/testing/vitest.js'
import { startRig } from '../../opencode/opencode-scenarios.js'
import type { OpencodeRig } from '../../opencode/opencode-scenarios.js'

/**
 * `runAdapterContract` against the real `opencode serve` and the scripted Anthropic server ("Say
 * hello" → a short text). The factories share one server through `baseUrl` (each adapter has its
 * own OpenCode session), since a server start costs several seconds; starting and disposing the
 * server is covered in opencode-adapter-live.test.ts. A1's laziness is observed as requests
 * reaching the model server. The failing factory points at a port nothing listens on.
 */

let rig: OpencodeRig
let deadPort = 0
const made: OpencodeAdapter[] = []

beforeAll(async () => {
  rig = await startRig()
  deadPort = await freePort()
}, 90_000)

afterAll(async () => {
  await Promise.all(made.map((adapter) => adapter.dispose()))
  await rig?.close()
})

const make = (baseUrl: string): OpencodeAdapter => {
  const adapter = opencodeAdapter({ cwd: rig.home.cwd, baseUrl, auth: rig.auth })
  made.push(adapter)
  return adapter
}

runAdapterContract('opencodeAdapter (real server, scripted model)', () => make(rig.server.url), {
  workCount: () => rig.model.requests.length,
  failing: () => ({ factory: make(`http://127.0.0.1:${deadPort}`) }),
  timeoutMs: 45_000,
})
