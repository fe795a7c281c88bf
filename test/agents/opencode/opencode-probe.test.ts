import { afterEach, describe, expect, it } from 'vitest'
import { probeOpencode } from '../../../src/cli/demo/agent-probe.js'
import { startAnthropicServer } from '../../support/anthropic-server.js'
import type { AnthropicServer } from '../../support/anthropic-server.js'
import { makeOpencodeHome, OPENCODE_BIN } from '../../support/opencode-cli.js'
import type { OpencodeHome } from '../../support/opencode-cli.js'

/** The demo's OpenCode probe (`opencode run --format json`, prompt on stdin) on the real binary. */

const opened: Array<{ model: AnthropicServer; home: OpencodeHome }> = []
afterEach(async () => {
  for (const { model, home } of opened.splice(0)) {
    await model.close()
    home.cleanup()
  }
})

async function setup(fallback: Parameters<typeof startAnthropicServer>[0]['fallback']): Promise<{ model: AnthropicServer; home: OpencodeHome }> {
  const model = await startAnthropicServer({ turns: [], ...(fallback ? { fallback } : {}) })
  const home = makeOpencodeHome({ modelUrl: model.url })
  opened.push({ model, home })
  return { model, home }
}

describe('probeOpencode', () => {
  it('answers when the configured model replies; the prompt went on stdin', async () => {
    const { model, home } = await setup({ content: [{ type: 'text', text: 'ready' }] })
    const result = await probeOpencode(OPENCODE_BIN, { timeoutMs: 60_000, env: home.env, cwd: home.cwd })
    expect(result).toMatchObject({ answers: true })
    expect(result.detail).toMatch(/^answered in \d+\.\d s$/)
    expect(JSON.stringify(model.requests.find((request) => !request.side)?.body.messages)).toContain('Reply with the single word: ready')
  }, 90_000)

  it('does not answer when the provider refuses, and says what it said', async () => {
    const { home } = await setup({ error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } })
    expect(await probeOpencode(OPENCODE_BIN, { timeoutMs: 60_000, env: home.env, cwd: home.cwd })).toMatchObject({ answers: false, detail: 'invalid x-api-key' })
  }, 90_000)
})
