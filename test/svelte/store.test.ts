import fc from 'fast-check'
import { derived, get } from 'svelte/store'
import { describe, expect, it, vi } from 'vitest'
import { createChatSession } from '../../renderers/svelte/store.js'
import { createChatBinding } from '../../src/view/chat-binding.js'
import type { ChatViewSnapshot } from '../../src/view/chat-view.js'
import { scenarioDefinition } from '../bindings/scenario-app/definition.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'

// chatrail/svelte's store over the view (renderers/svelte/store.ts): the Svelte store contract
// (`subscribe` calls back at once and after each change, and returns its stop), Svelte's own store
// helpers on it, the three sources it takes, and `destroy`.
const definition = () => scenarioDefinition(createScriptedAgent({ chunkDelayMs: 1 }))

describe('createChatSession (chatrail/svelte)', () => {
  it('keeps the Svelte store contract: the snapshot at once, then one call per change, none after the stop', async () => {
    const chat = createChatSession(definition())
    const seen: ChatViewSnapshot[] = []
    const stop = chat.subscribe((snapshot) => seen.push(snapshot))
    expect(seen).toHaveLength(1)
    expect(seen[0]?.badge).toEqual({ state: 'greeting', name: 'Greeting', words: 'Ready' })
    await chat.send('/start')
    expect(chat.get().conversation.state).toBe('collecting')
    expect(seen.at(-1)).toBe(chat.get())
    // a new object only for a change: no two calls in a row with the same snapshot
    expect(seen.every((snapshot, index) => index === 0 || snapshot !== seen[index - 1])).toBe(true)
    stop()
    const count = seen.length
    await chat.send('#12345')
    expect(chat.get().conversation.state).toBe('confirming')
    expect(seen).toHaveLength(count)
    chat.destroy()
  })

  it('works with svelte/store\'s get and derived, as `$chat` does in a component', async () => {
    const chat = createChatSession(definition(), { stateLabels: { collecting: 'Order lookup' } })
    const badge = derived(chat, ($chat) => `${$chat.badge.name}: ${$chat.badge.words}`)
    expect(get(badge)).toBe('Greeting: Ready')
    const seen: string[] = []
    const stop = badge.subscribe((text) => seen.push(text))
    await chat.send('/start')
    expect(seen.at(-1)).toBe('Order lookup: Ready')
    expect(get(chat).items.map((item) => (item.kind === 'message' ? item.message.content : item.kind))).toEqual(['/start', 'Sure. What is your order number? (for example #12345)'])
    stop()
    chat.destroy()
  })

  it('takes a binding made elsewhere as it is, and `{ definition, remote }` as a chat on a server', () => {
    const binding = createChatBinding(definition())
    const local = createChatSession(binding)
    expect(local.view.binding).toBe(binding)
    expect(local.session).toBe(binding.session)
    const requests: string[] = []
    const remote = createChatSession({ definition: definition(), remote: { api: '/api/chat', conversationId: 'c-1', restore: false, fetch: async (input) => { requests.push(String(input)); return new Response('{}') } } })
    expect(remote.view.binding.identity).toMatch(/^remote:c-1:/)
    const stop = remote.subscribe(() => undefined)
    expect(requests).toEqual([])
    stop()
    local.destroy()
    remote.destroy()
  })

  it('sends a component interaction once, however many times it is asked', async () => {
    const chat = createChatSession(definition())
    const stop = chat.subscribe(() => undefined)
    await chat.send('/options')
    const answer = chat.get().messages.at(-1)
    const part = answer?.parts?.find((candidate) => candidate.type === 'component')
    if (answer === undefined || part === undefined || part.type !== 'component') throw new Error('no component in the answer')
    const sent = await Promise.all([chat.interact(answer.id, part, 'select', 'reship', 'Reship'), chat.interact(answer.id, part, 'select', 'reship', 'Reship')])
    expect(sent.filter(Boolean)).toHaveLength(1)
    expect(chat.get().messages.filter((message) => message.role === 'user')).toHaveLength(2)
    stop()
    chat.destroy()
  })

  it('says what it needs when given nothing to run on (a <ChatSession> with neither `chat` nor `definition`)', () => {
    const make = (): unknown => createChatSession(undefined as never)
    expect(make).toThrow(expect.objectContaining({ code: 'NO_CHAT_SOURCE', hint: expect.stringContaining('definition') }))
  })

  it('property: whatever the turns, subscribers get each change once and end on the current snapshot', async () => {
    const inputs = fc.constantFrom('/start', '#12345', '/options', 'where is it', 'ask', '/nothing')
    await fc.assert(fc.asyncProperty(fc.array(inputs, { maxLength: 5 }), fc.integer({ min: 1, max: 3 }), async (turns, subscribers) => {
      const chat = createChatSession(scenarioDefinition(createScriptedAgent({ chunkDelayMs: 0 })))
      const seen = Array.from({ length: subscribers }, () => [] as ChatViewSnapshot[])
      const stops = seen.map((list) => chat.subscribe((snapshot) => list.push(snapshot)))
      for (const text of turns) {
        // "ask" opens a dialog that holds the turn: answer it so the next turn can start
        const sent = chat.send(text)
        if (text === 'ask') {
          await vi.waitFor(() => { if (chat.get().pendingDialog === undefined) throw new Error('no dialog yet') })
          const dialog = chat.get().pendingDialog
          if (dialog !== undefined) await chat.answerDialog(dialog.toolId, { kind: 'question', answers: [{ question: dialog.prompt, chosen: ['Pro'] }] })
        }
        await sent
      }
      for (const list of seen) {
        expect(list.at(-1)).toBe(chat.get())
        expect(list.every((snapshot, index) => index === 0 || snapshot !== list[index - 1])).toBe(true)
      }
      // every subscriber saw the same sequence
      for (const list of seen) expect(list).toEqual(seen[0])
      stops.forEach((stop) => stop())
      chat.destroy()
    }), { numRuns: 25 })
  }, 60_000)
})
