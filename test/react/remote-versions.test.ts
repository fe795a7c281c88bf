import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import { serverSideAgent } from '../../src/view/server-side-agent.js'
import { sourcesOf } from '../../src/controller/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { eventually, listen, numberedAgent, type Listening } from '../server/support/harness.js'
import { remoteDefinition } from './remote-page/remote-definition.js'

/**
 * Versions and an answer's extras in remote mode, without React: the binding's `branchesOf` and
 * `switchBranch` are the server's (issue #31 item 9), so a regenerate's 1/2 survives a reload and
 * a switch shows the first answer again; the reasoning and sources of a reply survive it too.
 */

let store: ConversationStore
let http: Listening
beforeEach(async () => {
  store = memoryStore()
  http = await listen(createChatHandler({ definition: remoteDefinition(numberedAgent()), store, authenticate: 'none' }))
})
afterEach(async () => {
  await http.close()
  await store.close()
})

const bind = (conversationId: string) => createRemoteChatBinding(remoteDefinition(serverSideAgent), { api: http.url, conversationId })
const contents = (binding: ReturnType<typeof bind>): string[] => binding.getState().chat.messages.map((message) => message.content)

describe('remote versions', () => {
  it('a regenerate shows 2/2 live and after a reload; switching shows the first answer, and the reload after it too', async () => {
    const live = bind('v1')
    const offLive = live.subscribe(() => undefined)
    await live.controller.send('hello')
    const firstReply = live.getState().chat.messages[1]!
    expect(live.controller.branchesOf(firstReply.id)).toEqual({ index: 0, count: 1 })
    await live.controller.regenerate()
    const reply = live.getState().chat.messages[1]!
    expect(reply.content).toBe('answer 2')
    expect(live.controller.branchesOf(reply.id)).toEqual({ index: 1, count: 2 })
    // the live reply got its reasoning and its source over the wire (reasoning and source-url parts)
    expect(reply.metadata?.reasoning).toBe('thinking 2')
    expect(sourcesOf(reply)).toEqual([{ url: 'https://example.com/2', title: 'Source 2' }])
    expect(live.controller.branchesOf(live.getState().chat.messages[0]!.id)).toEqual({ index: 0, count: 1 })
    offLive()

    const reloaded = bind('v1')
    const off = reloaded.subscribe(() => undefined)
    await eventually(async () => reloaded.getState().chat.messages.length === 2)
    const restored = reloaded.getState().chat.messages[1]!
    expect(reloaded.controller.branchesOf(restored.id)).toEqual({ index: 1, count: 2 })
    // the reply's reasoning and sources came back with it
    expect(restored.metadata?.reasoning).toBe('thinking 2')
    expect(sourcesOf(restored)).toEqual([{ url: 'https://example.com/2', title: 'Source 2' }])

    expect(reloaded.controller.switchBranch(restored.id, 1)).toBe(false) // already shown
    expect(reloaded.controller.switchBranch(restored.id, 2)).toBe(false) // no such version
    expect(() => reloaded.controller.switchBranch(restored.id, -1)).toThrow(/index must be a whole number/)
    expect(reloaded.controller.switchBranch(restored.id, 0)).toBe(true)
    await eventually(async () => contents(reloaded)[1] === 'answer 1')
    // the switched reply keeps the id it had in the page (its element, and the focus in it, stay)
    expect(reloaded.getState().chat.messages[1]!.id).toBe(restored.id)
    expect(reloaded.controller.branchesOf(restored.id)).toEqual({ index: 0, count: 2 })
    off()

    const again = bind('v1')
    const offAgain = again.subscribe(() => undefined)
    await eventually(async () => again.getState().chat.messages.length === 2)
    expect(contents(again)).toEqual(['hello', 'answer 1'])
    expect(again.controller.branchesOf(again.getState().chat.messages[1]!.id)).toEqual({ index: 0, count: 2 })
    offAgain()
  })

  it('an edit keeps the question it replaced; switching the question back shows its answer', async () => {
    const binding = bind('v2')
    const off = binding.subscribe(() => undefined)
    await binding.controller.send('first wording')
    const question = binding.getState().chat.messages[0]!
    await binding.controller.edit(question.id, 'second wording')
    expect(contents(binding)).toEqual(['second wording', 'answer 2'])
    expect(binding.controller.branchesOf(question.id)).toEqual({ index: 1, count: 2 })
    expect(binding.controller.switchBranch(question.id, 0)).toBe(true)
    await eventually(async () => contents(binding)[0] === 'first wording')
    expect(contents(binding)).toEqual(['first wording', 'answer 1'])
    expect(binding.controller.branchesOf(question.id)).toEqual({ index: 0, count: 2 })
    off()
  })
})
