import { describe, expect, it, vi } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, createChatSession, defineChat, eventRoute, patternRoute, sendUiEvent, type ChatDefinition } from '../../src/index.js'
import { scriptedAdapter, type ScriptedAdapter } from '../../src/testing/index.js'

// The session through a real chatrail controller: retry, regenerate, edit, stop, setMessages,
// clear and UI events, with the session synced on every controller change (as renderers do).

function setup(model: ScriptedAdapter, definition?: ChatDefinition) {
  let n = 0
  const def =
    definition ??
    defineChat({
      id: 'ctl',
      chat: { adapter: model },
      conversation: {
        initial: 'idle',
        states: {
          idle: { on: { start: 'collecting' } },
          collecting: { on: { order: 'confirming', cancel: 'idle' } },
          confirming: { on: { confirm: 'done', cancel: 'idle' } },
          done: { final: true },
        },
        routes: [
          commandRoute({ id: 'start', command: '/start', event: 'start', response: () => `Order number? (${++n})` }),
          patternRoute({ id: 'order', pattern: /^#?(?<order>\d{4,})$/, event: 'order', assign: true, response: (_i, ctx) => `Confirm order ${ctx.match?.groups.order}?` }),
          eventRoute({ id: 'confirm', uiEvent: 'confirm', event: 'confirm', response: 'Confirmed.' }),
          commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: 'Cancelled.' }),
        ],
      },
    })
  const session = createChatSession(def, { sessionId: 's1', ids: (() => { let i = 0; return () => `t${++i}` })() })
  let m = 0
  const controller = createChatController(session.chat, { ids: () => `m${++m}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  const last = () => controller.getState().messages.at(-1)
  return { session, controller, last }
}

describe('session through createChatController', () => {
  it('a deterministic walk makes no model call and the reply lands in the assistant message', async () => {
    const model = scriptedAdapter(['agent'])
    const { session, controller, last } = setup(model)
    await controller.send('/start')
    expect(last()).toMatchObject({ role: 'assistant', content: 'Order number? (1)', status: 'complete' })
    await controller.send('#12345')
    expect(session.getSnapshot()).toMatchObject({ state: 'confirming', context: { order: '12345' } })
    await sendUiEvent(controller, 'confirm', 'Yes, confirm')
    expect(last()?.content).toBe('Confirmed.')
    expect(session.getSnapshot()).toMatchObject({ state: 'done', final: true })
    expect(model.calls).toHaveLength(0)
    expect(controller.getState().status).toBe('idle')
  })

  it('typing the label of a UI event never fires the event route', async () => {
    const model = scriptedAdapter(['agent'])
    const { session, controller } = setup(model)
    await controller.send('/start')
    await controller.send('1234')
    await controller.send('confirm')
    expect(session.getSnapshot().state).toBe('confirming')
    expect(model.calls).toHaveLength(1)
  })

  it('retry and regenerate replay the decision: same content, no callback, no model call, state advances once', async () => {
    const model = scriptedAdapter(['agent'])
    const { session, controller, last } = setup(model)
    await controller.send('/start')
    await controller.retry()
    expect(last()?.content).toBe('Order number? (1)')
    await controller.regenerate()
    expect(last()?.content).toBe('Order number? (1)')
    expect(session.getSnapshot().state).toBe('collecting')
    expect(model.calls).toHaveLength(0)
    expect(session.traces().map((t) => [t.kind, t.replayed, t.turnId])).toEqual([
      ['deterministic', false, 't1'],
      ['deterministic', true, 't1'],
      ['deterministic', true, 't1'],
    ])
  })

  it('regenerate of an earlier answer replays that turn and drops the later ones', async () => {
    const model = scriptedAdapter(['agent'])
    const { session, controller } = setup(model)
    await controller.send('/start')
    const firstAnswer = controller.getState().messages[1]
    await controller.send('4321')
    expect(session.getSnapshot().state).toBe('confirming')
    await controller.regenerate(firstAnswer?.id)
    expect(controller.getState().messages.map((m) => m.content)).toEqual(['/start', 'Order number? (1)'])
    expect(session.getSnapshot()).toMatchObject({ state: 'collecting', context: {} })
    expect(model.calls).toHaveLength(0)
  })

  it('edit re-decides from the state before the edited message; edit without regenerate syncs at once', async () => {
    const model = scriptedAdapter(['agent'])
    const { session, controller } = setup(model)
    await controller.send('/start')
    await controller.send('5555')
    const [first, , second] = controller.getState().messages
    await controller.edit(second!.id, '6666')
    expect(session.getSnapshot()).toMatchObject({ state: 'confirming', context: { order: '6666' } })
    await controller.edit(first!.id, 'hello', { regenerate: false })
    expect(session.getSnapshot()).toMatchObject({ state: 'idle', context: {} })
    expect(model.calls).toHaveLength(0)
  })

  it('setMessages truncation and clear re-derive the state', async () => {
    const { session, controller } = setup(scriptedAdapter(['agent']))
    await controller.send('/start')
    await controller.send('7777')
    const messages = controller.getState().messages
    controller.setMessages(messages.slice(0, 2))
    expect(session.getSnapshot()).toMatchObject({ state: 'collecting', context: {} })
    await controller.clear()
    expect(session.getSnapshot().state).toBe('idle')
  })

  it('a stopped deterministic turn commits nothing and caches nothing (trace outcome aborted)', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const response = vi.fn(async () => {
      await gate
      return 'slow answer'
    })
    const model = scriptedAdapter(['agent'])
    const def = defineChat({
      id: 'slow',
      chat: { adapter: model },
      conversation: { initial: 'idle', states: { idle: { on: { start: 'busy' } }, busy: { on: { back: 'idle' } } }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response })] },
    })
    const { session, controller } = setup(model, def)
    const sending = controller.send('/start')
    await vi.waitFor(() => expect(response).toHaveBeenCalledTimes(1))
    controller.stop()
    release()
    await sending
    expect(session.getSnapshot().state).toBe('idle')
    expect(session.traces().at(-1)).toMatchObject({ kind: 'deterministic', outcome: 'aborted', routeId: 'start', toState: 'idle' })
    await controller.retry()
    expect(response).toHaveBeenCalledTimes(2)
    expect(session.getSnapshot().state).toBe('busy')
  })

  it('an aborted retry leaves the message undecided until an answer completes again', async () => {
    const model = scriptedAdapter(['agent'])
    const { session, controller } = setup(model)
    await controller.send('/start')
    expect(session.getSnapshot().state).toBe('collecting')
    const retrying = controller.retry()
    controller.stop()
    await retrying
    // The answer in history is the stopped one, which carries no decision: state follows history.
    expect(session.getSnapshot().state).toBe('idle')
    await controller.retry()
    expect(session.getSnapshot().state).toBe('collecting')
    expect(controller.getState().messages.at(-1)?.content).toBe('Order number? (1)')
    expect(model.calls).toHaveLength(0)
  })

  it('an agentic miss goes through the controller unchanged', async () => {
    const model = scriptedAdapter([[{ type: 'text', content: 'Hi ' }, { type: 'text', content: 'there' }, { type: 'done' }] as StreamChunk[]])
    const { session, controller, last } = setup(model)
    await controller.send('hello')
    expect(last()?.content).toBe('Hi there')
    expect(session.traces()[0]).toMatchObject({ kind: 'agentic', outcome: 'ok', fromState: 'idle', toState: 'idle', messageId: 'm1', turnId: 't1' })
  })

  it('a route error reaches the controller as an error turn with a ChatrailRouteError, state unchanged', async () => {
    const model = scriptedAdapter(['agent'])
    const def = defineChat({
      id: 'err',
      chat: { adapter: model },
      conversation: { initial: 'idle', states: { idle: { on: { start: 'busy' } }, busy: {} }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: () => Promise.reject(new Error('db down')) })] },
    })
    const { session, controller } = setup(model, def)
    await controller.send('/start')
    const state = controller.getState()
    expect(state.status).toBe('error')
    expect(state.error).toMatchObject({ name: 'ChatrailRouteError', routeId: 'start' })
    expect(session.getSnapshot().state).toBe('idle')
    expect(session.traces()[0]).toMatchObject({ outcome: 'error', routeId: 'start', errorClass: 'Error', reason: 'response-threw' })
  })
})
