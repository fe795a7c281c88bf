import { describe, expect, it } from 'vitest'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { ChatConfig } from '../../src/contract/chat.js'
import type { Retriever } from '../../src/contract/memory.js'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession, defineChat } from '../../src/index.js'

/**
 * docs/contract.md § What differs: a turn stopped in the same tick as `send()` never calls the
 * retriever (nor the adapter). Upstream's `send` called the retriever before it looked at a stop.
 * Checked with and without skills (whose activation is the first await of a turn), for a plain
 * controller and for a session's chat.
 */

function counting(): { retriever: Retriever; adapter: AdapterFactory; calls: { retrieve: number; createSource: number } } {
  const calls = { retrieve: 0, createSource: 0 }
  return {
    calls,
    retriever: {
      retrieve: () => {
        calls.retrieve += 1
        return [{ id: 'doc', content: 'A document.' }]
      },
    },
    adapter: {
      createSource: () => {
        calls.createSource += 1
        return { stream: async function* () { yield { type: 'text', content: 'Hi.' }; yield { type: 'done' } }, abort: () => undefined }
      },
    },
  }
}

const withSkills = (config: ChatConfig): ChatConfig => ({ ...config, skills: [{ name: 'helper', description: 'Helps.', systemPrompt: 'Be brief.' }] })

describe('a turn stopped in the same tick as send()', () => {
  for (const skills of [false, true]) {
    it(`never calls the retriever or the adapter${skills ? ' (with skills)' : ''}`, async () => {
      const { retriever, adapter, calls } = counting()
      const base: ChatConfig = { adapter, retriever }
      const controller = createChatController(skills ? withSkills(base) : base)
      const sent = controller.send('hello')
      controller.stop()
      await sent
      expect(calls).toEqual({ retrieve: 0, createSource: 0 })
      // The same controller still retrieves for a turn that runs, so the count above could have failed.
      await controller.send('hello again')
      expect(calls).toEqual({ retrieve: 1, createSource: 1 })
    })
  }

  it('never calls the retriever through a session either', async () => {
    const { retriever, adapter, calls } = counting()
    const session = createChatSession(defineChat({ id: 'r', chat: { adapter, retriever }, conversation: { initial: 'idle', states: { idle: {} }, routes: [] } }), { lint: false })
    const controller = createChatController(session.chat)
    const sent = controller.send('hello')
    controller.stop()
    await sent
    expect(calls).toEqual({ retrieve: 0, createSource: 0 })
    expect(session.traces()).toEqual([])
  })
})
