import { describe, expect, it } from 'vitest'
import { createChatController, defaultIds } from '../../src/controller/index.js'
import type { StreamChunk } from '../../src/contract/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { fixedSources } from './harness.js'

/** One script touching every lifecycle path that writes state. */
async function script(): Promise<string> {
  const adapter = scriptedAdapter([
    [{ type: 'reasoning', content: 'hmm' }, { type: 'text', content: 'Hello' }, { type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } }],
    [{ type: 'tool_call', toolCall: { id: 'c1', name: 'add', args: '{"a":1,"b":2}' } }] as StreamChunk[],
    'It is 3.',
    'Retried.',
    [{ type: 'error', content: 'flaky' }],
    'Regenerated.',
    'After edit.',
  ])
  const controller = createChatController(
    { adapter, tools: [{ name: 'add', execute: (args) => Number(args.a) + Number(args.b) }] },
    fixedSources(),
  )
  await controller.send('hi', { metadata: { chatrail: { event: 'hello' } } })
  await controller.send('add 1 and 2')
  await controller.retry()
  await controller.send('fail please')
  await controller.regenerate()
  await controller.edit(controller.getState().messages[0]?.id as string, 'hi again')
  controller.setInput('draft')
  return JSON.stringify(controller.getState())
}

describe('determinism', () => {
  it('the same script with fixed ids and clock yields byte-identical state JSON', async () => {
    const first = await script()
    const second = await script()
    expect(second).toBe(first)
    expect(first).toContain('"id":"m1"')
    expect(first).toContain('"createdAt":"2026-01-01T00:00:00.000Z"')
  })

  it('default ids never collide across controllers (UUID based)', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 20; i += 1) {
      const controller = createChatController({ adapter: scriptedAdapter(['x']) })
      await controller.send('q')
      for (const message of controller.getState().messages) ids.add(message.id)
    }
    expect(ids.size).toBe(40)
    expect(defaultIds()).toMatch(/^msg-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
