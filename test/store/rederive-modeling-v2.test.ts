import { describe, expect, it } from 'vitest'
import { createChatSession, defineChat, commandRoute, textRoute } from '../../src/index.js'
import { rederive } from '../../src/store/index.js'
import { drive } from '../conversation/chat-driver.js'

// The store's revision path (rederive) keeps the new kinds of deterministic turns of issue 19:
// a form's re-prompts (their records carry the attempt count), filled slots, reply-only answers
// and refusals are re-decided with their records, so the rebuilt state equals the live one.

const definition = defineChat({
  id: 'stored-form',
  revision: 2,
  chat: {},
  conversation: {
    initial: 'idle',
    context: {},
    states: {
      idle: { on: { start: 'form' } },
      form: { on: { done: 'check', stuck: 'idle' }, form: { slots: { pin: { prompt: 'PIN?', validate: (input) => (/^\d{4}$/.test(input) ? input : undefined), maxAttempts: 3 } }, done: 'done', exhausted: 'stuck' } },
      check: { on: { ok: { target: 'end', guard: ({ context }) => context.pin !== '0000' } } },
      end: { final: true },
    },
    routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Go.' }),
      commandRoute({ id: 'help', command: '/help', response: 'Help.' }),
      textRoute({ id: 'ok', text: 'ok', event: 'ok', refuse: 'Not with that PIN.', response: 'Done.' }),
    ],
    fallback: { response: 'Sorry?' },
  },
})

describe('rederive with modeling v2 turns', () => {
  it('re-decides re-prompts, slots, reply-only answers and refusals with their records', async () => {
    const chat = drive(definition)
    for (const text of ['/start', 'x', '/help', 'y']) await chat.say(text)
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'form', context: { formAttempts: 2 } })
    const { messages, traces } = await rederive(definition, chat.messages())
    expect(traces.map((trace) => trace.outcome)).toEqual(['ok', 'refused', 'ok', 'refused'])
    const fresh = createChatSession(definition, { lint: false })
    fresh.sync(messages)
    expect(fresh.getSnapshot()).toEqual(chat.session.getSnapshot())

    for (const text of ['0000', 'ok']) await chat.say(text)
    expect(chat.last()).toMatchObject({ outcome: 'refused', routeId: 'ok' })
    const again = await rederive(definition, chat.messages())
    const rebuilt = createChatSession(definition, { lint: false })
    rebuilt.sync(again.messages)
    expect(rebuilt.getSnapshot()).toEqual(chat.session.getSnapshot())
    expect(rebuilt.getSnapshot()).toMatchObject({ state: 'check', context: { pin: '0000' } })
  })
})

describe('rederive when a route changed', () => {
  it('drops the old record of a message the new definition no longer matches: rebuilding the output gives the state the rederive reached', async () => {
    const machine = { initial: 'idle', context: {}, states: { idle: { on: { go: 'busy' } }, busy: { on: { finish: 'done' } }, done: { final: true } } } as const
    const old = defineChat({ id: 'changed', revision: 1, chat: {}, conversation: { ...machine, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Going.' }), commandRoute({ id: 'finish', command: '/x', event: 'finish', response: 'Finished.' })], fallback: { response: 'Sorry?' } } })
    const renamed = defineChat({ id: 'changed', revision: 2, chat: {}, conversation: { ...machine, routes: [commandRoute({ id: 'go', command: '/start', event: 'go', response: 'Going.' }), commandRoute({ id: 'finish', command: '/x', event: 'finish', response: 'Finished.' })], fallback: { response: 'Sorry?' } } })
    const chat = drive(old)
    for (const text of ['/go', '/x']) await chat.say(text)
    expect(chat.session.getSnapshot().state).toBe('done')
    const { messages, traces } = await rederive(renamed, chat.messages())
    expect(traces.map((trace) => trace.toState)).toEqual(['idle', 'idle'])
    // Under the new definition "/go" matches nothing, so nothing moves the machine: "/x" is not allowed in idle either.
    const rebuilt = createChatSession(renamed, { lint: false })
    rebuilt.sync(messages)
    expect(rebuilt.getSnapshot().state).toBe('idle')
    expect(messages.filter((message) => message.role === 'assistant').map((message) => (message.metadata as { chatrail?: { routeId?: string } } | undefined)?.chatrail?.routeId)).toEqual([undefined, undefined])
  })
})

