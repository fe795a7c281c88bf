import { describe, expect, it, vi } from 'vitest'
import { commandRoute, createChatSession, defineChat, route, textRoute, type JsonObject, type TurnTrace } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { assistant, drain, flowDefinition, textOf, turn, user, withoutRecords } from './helpers.js'

// The AgentsKit Chat conformance floor (research/agentskit-chat-deterministic.md §7, items 1–21;
// 22–23 live in definition.test.ts), exercised through the session's adapter directly.

const shape = (t: TurnTrace) => ({ kind: t.kind, routeId: t.routeId, fromState: t.fromState, toState: t.toState })

describe('conversation floor (§7 1–21)', () => {
  it('1: defineChat keeps the chat reference and the fields', () => {
    const chat = { adapter: scriptedAdapter(['x']) }
    const def = defineChat({ id: 'd', chat, conversation: { initial: 'a', states: { a: {} }, routes: [] } })
    expect(def.chat).toBe(chat)
    expect(def).toMatchObject({ id: 'd', revision: 1, conversation: { initial: 'a', routes: [] } })
  })

  it('2, 5: a fresh snapshot projects initial state, its events and actions; a state without events has []', async () => {
    const session = createChatSession(flowDefinition())
    expect(session.getSnapshot()).toEqual({ state: 'idle', context: {}, events: ['start'], actions: ['begin'], final: false })
    const m1 = user('/start')
    await turn(session.chat.adapter, [m1])
    await turn(session.chat.adapter, [m1, assistant('What is your name?'), user('Ada')])
    const other = createChatSession(flowDefinition(), { start: { state: 'complete' } })
    expect(other.getSnapshot()).toMatchObject({ state: 'complete', events: [], actions: [], final: true })
  })

  it('3, 4: a matching command streams text then done and moves to the target state', async () => {
    const session = createChatSession(flowDefinition())
    const chunks = await turn(session.chat.adapter, [user('/start')])
    expect(withoutRecords(chunks)).toEqual([{ type: 'text', content: 'What is your name?' }, { type: 'done' }])
    expect(session.getSnapshot()).toMatchObject({ state: 'collecting', events: ['name', 'cancel'], actions: ['type-name', 'cancel'] })
  })

  it('6: a two-step flow completes with no model call, traced deterministic twice', async () => {
    const model = scriptedAdapter(['never'])
    const def = defineChat({
      id: 'two',
      chat: { adapter: model },
      conversation: {
        initial: 'idle',
        states: { idle: { on: { start: 'asking' } }, asking: { on: { done: 'finished' } }, finished: { final: true } },
        routes: [
          commandRoute({ id: 'start', command: '/start', event: 'start', response: 'go' }),
          commandRoute({ id: 'done', command: '/done', event: 'done', response: 'bye' }),
        ],
      },
    })
    const session = createChatSession(def)
    const m1 = user('/start')
    await turn(session.chat.adapter, [m1])
    await turn(session.chat.adapter, [m1, assistant('go'), user('/done')])
    expect(model.calls).toHaveLength(0)
    expect(session.traces().map((t) => t.kind)).toEqual(['deterministic', 'deterministic'])
    expect(session.getSnapshot().state).toBe('finished')
  })

  it('7, 8: `states` restricts a route; an event the state does not declare makes it ineligible', async () => {
    const model = scriptedAdapter(['agent'])
    const session = createChatSession(flowDefinition(model))
    await turn(session.chat.adapter, [user('/cancel')]) // only in `collecting`
    expect(model.calls).toHaveLength(1)
    expect(session.getSnapshot().state).toBe('idle')
    // `<JsonObject>`: names unchecked, so the route may name an event no state declares.
    const def = defineChat<JsonObject>({
      id: 'undeclared',
      chat: { adapter: model },
      conversation: { initial: 'a', states: { a: { on: { go: 'b' } }, b: {} }, routes: [route({ id: 'r', event: 'elsewhere', match: () => true, response: 'no' })] },
      // `elsewhere` is declared nowhere: lint warns; at runtime the route never fires.
    })
    const s2 = createChatSession(def, { lint: false })
    await turn(s2.chat.adapter, [user('anything')])
    expect(model.calls).toHaveLength(2)
  })

  it('9, 10: unknown input reaches the adapter with the identical request; the agentic trace has no routeId', async () => {
    const model = scriptedAdapter(['agent answer'])
    const session = createChatSession(flowDefinition(model))
    const request = { messages: [user('hello there')] }
    const chunks = await drain(session.chat.adapter.createSource(request))
    expect(model.requests[0]).toBe(request)
    expect(model.requests[0]?.messages).toBe(request.messages)
    expect(textOf(chunks)).toBe('agent answer')
    const [trace] = session.traces()
    expect(shape(trace as TurnTrace)).toEqual({ kind: 'agentic', routeId: undefined, fromState: 'idle', toState: 'idle' })
    expect(trace).not.toHaveProperty('routeId')
  })

  it('11: the first matching route in declaration order wins (index and scan routes interleaved)', async () => {
    const def = defineChat({
      id: 'order',
      chat: { adapter: scriptedAdapter(['x']) },
      conversation: {
        initial: 'a',
        states: { a: { on: { go: 'a' } } },
        routes: [
          route({ id: 'custom-first', event: 'go', match: (input) => input === 'later', response: 'custom' }),
          textRoute({ id: 'text', text: 'hello', event: 'go', response: 'text' }),
          commandRoute({ id: 'cmd', command: 'hello', event: 'go', response: 'command' }),
          route({ id: 'custom-last', event: 'go', match: () => true, response: 'fallthrough' }),
        ],
      },
    })
    const session = createChatSession(def, { lint: false })
    expect(textOf(await turn(session.chat.adapter, [user('hello')]))).toBe('text')
    expect(textOf(await turn(session.chat.adapter, [user('later')]))).toBe('custom')
    expect(textOf(await turn(session.chat.adapter, [user('other')]))).toBe('fallthrough')
  })

  it('12: two sessions of one definition have independent state', async () => {
    const def = flowDefinition()
    const a = createChatSession(def)
    const b = createChatSession(def)
    await turn(a.chat.adapter, [user('/start')])
    expect(a.getSnapshot().state).toBe('collecting')
    expect(b.getSnapshot().state).toBe('idle')
  })

  it('13: traceKind labels are copied into the trace', async () => {
    const def = defineChat({
      id: 'labels',
      chat: { adapter: scriptedAdapter(['x']) },
      conversation: {
        initial: 'a',
        states: { a: { on: { fix: 'a', fb: 'a' } } },
        routes: [
          commandRoute({ id: 'fix', command: '/fix', event: 'fix', response: 'fixed', traceKind: 'repaired' }),
          commandRoute({ id: 'fb', command: '/fb', event: 'fb', response: 'canned', traceKind: 'fallback' }),
        ],
      },
    })
    const session = createChatSession(def)
    await turn(session.chat.adapter, [user('/fix')])
    await turn(session.chat.adapter, [user('/fb')])
    expect(session.traces().map((t) => t.kind)).toEqual(['repaired', 'fallback'])
  })

  it('14–16: a throwing response or match yields one error chunk, no transition, no model call', async () => {
    const model = scriptedAdapter(['agent'])
    const def = defineChat({
      id: 'throws',
      chat: { adapter: model },
      conversation: {
        initial: 'idle',
        states: { idle: { on: { start: 'busy' } }, busy: {} },
        routes: [
          commandRoute({ id: 'boom', command: '/boom', event: 'start', response: () => { throw new TypeError('secret detail') } }),
          route({ id: 'bad-match', event: 'start', match: () => { throw new RangeError('nope') }, response: 'x' }),
        ],
      },
    })
    const session = createChatSession(def, { lint: false })
    const chunks = await turn(session.chat.adapter, [user('/boom')])
    expect(chunks).toHaveLength(1)
    expect(chunks[0]).toMatchObject({ type: 'error', content: expect.any(String) })
    expect(chunks[0]?.content).not.toContain('secret detail')
    expect(session.getSnapshot().state).toBe('idle')
    const viaMatch = await turn(session.chat.adapter, [user('anything')])
    expect(viaMatch).toHaveLength(1)
    expect(viaMatch[0]?.type).toBe('error')
    expect(session.getSnapshot().state).toBe('idle')
    expect(model.calls).toHaveLength(0)
  })

  it('17: re-dispatching the decided last user message replays without the route callback', async () => {
    const response = vi.fn(() => 'What is your name?')
    const def = defineChat({
      id: 'replay',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'idle', states: { idle: { on: { start: 'collecting' } }, collecting: { on: { x: 'idle' } } }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response })] },
    })
    const session = createChatSession(def)
    const m1 = user('/start')
    const first = await turn(session.chat.adapter, [m1])
    const again = await turn(session.chat.adapter, [m1])
    expect(again).toEqual(first)
    expect(response).toHaveBeenCalledTimes(1)
    expect(session.getSnapshot().state).toBe('collecting')
    expect(session.traces().map((t) => t.replayed)).toEqual([false, true])
  })

  it('18: an edited deterministic turn calls the model once and the state returns to what earlier history implies', async () => {
    const model = scriptedAdapter(['agent'])
    const session = createChatSession(flowDefinition(model))
    const m1 = user('/start', 'm1')
    await turn(session.chat.adapter, [m1])
    expect(session.getSnapshot().state).toBe('collecting')
    await turn(session.chat.adapter, [{ ...m1, content: 'just chatting' }])
    expect(model.calls).toHaveLength(1)
    expect(session.getSnapshot().state).toBe('idle')
  })

  it('19: decisions of removed user messages are pruned: a reused id runs the route again', async () => {
    let n = 0
    const def = defineChat({
      id: 'prune',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'a', states: { a: { on: { go: 'a' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: () => `two-${++n}` })] },
    })
    const session = createChatSession(def)
    const one = user('/one', 'one')
    const two = user('/go', 'two')
    await turn(session.chat.adapter, [one, assistant('x'), two])
    await turn(session.chat.adapter, [one]) // `two` removed
    const again = await turn(session.chat.adapter, [one, assistant('x'), user('/go', 'two')])
    expect(textOf(again)).toBe('two-2')
  })

  it('20: updateChat({...session.chat}) does not double-wrap: one model call, one trace', async () => {
    const model = scriptedAdapter(['agent'])
    const session = createChatSession(flowDefinition(model))
    const chat = session.updateChat({ ...session.chat, systemPrompt: 'be brief' })
    expect(chat).toBe(session.chat)
    expect(chat.systemPrompt).toBe('be brief')
    await turn(session.chat.adapter, [user('hello')])
    expect(model.calls).toHaveLength(1)
    expect(session.traces()).toHaveLength(1)
  })

  it('21: throwing and rejecting observers do not break dispatch', async () => {
    const def = flowDefinition()
    const session = createChatSession(
      defineChat({ ...def, conversation: { ...def.conversation, onTrace: () => { throw new Error('sync') } } }),
      { onTrace: () => Promise.reject(new Error('async')) },
    )
    session.subscribe(() => { throw new Error('listener') })
    const chunks = await turn(session.chat.adapter, [user('/start')])
    expect(textOf(chunks)).toBe('What is your name?')
    expect(session.getSnapshot().state).toBe('collecting')
    await new Promise((resolve) => setImmediate(resolve))
  })
})
