import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { commandRoute, createChatSession, defineChat } from '../../src/index.js'
import type { RouteOutput, RouteResult } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

/**
 * Issue 15 item 15: a route's output is read once, inside the guarded region. An output object
 * whose `text` getter throws is a route failure (ChatrailRouteError, `response-threw` trace), like
 * every other route failure, never a generic stream failure without a trace.
 */

function run(response: () => RouteResult<Record<string, never>> | Promise<RouteResult<Record<string, never>>>) {
  const model = scriptedAdapter(['agent'])
  const def = defineChat({
    id: 'getter',
    chat: { adapter: model },
    conversation: { initial: 'idle', states: { idle: { on: { start: 'busy' } }, busy: { final: true } }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response })] },
  })
  const session = createChatSession(def, { sessionId: 's1', ids: (() => { let i = 0; return () => `t${++i}` })() })
  let m = 0
  const controller = createChatController(session.chat, { ids: () => `m${++m}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  return { session, controller, model }
}

function throwingText(): RouteOutput<Record<string, never>> {
  return Object.defineProperty({}, 'text', {
    enumerable: true,
    get() {
      throw new TypeError('text getter exploded')
    },
  }) as RouteOutput<Record<string, never>>
}

describe('route output: read once, inside the guarded region', () => {
  it.each([
    ['returned', () => throwingText()],
    ['resolved', () => Promise.resolve(throwingText())],
  ])('a %s object whose text getter throws is a ChatrailRouteError with an error trace, state unchanged', async (_how, response) => {
    const { session, controller, model } = run(response)
    await controller.send('/start')
    const state = controller.getState()
    expect(state.status).toBe('error')
    expect(state.error).toMatchObject({ name: 'ChatrailRouteError', routeId: 'start' })
    expect(session.getSnapshot().state).toBe('idle')
    expect(session.traces()[0]).toMatchObject({ outcome: 'error', routeId: 'start', errorClass: 'TypeError', reason: 'response-threw' })
    expect(model.calls).toHaveLength(0)
  })

  it('reads each field of the output exactly once', async () => {
    let reads = 0
    const output = Object.defineProperty({}, 'text', {
      enumerable: true,
      get() {
        reads += 1
        return reads === 1 ? 'first read' : 'a later read'
      },
    }) as RouteOutput<Record<string, never>>
    const { controller } = run(() => output)
    await controller.send('/start')
    expect(controller.getState().messages.at(-1)?.content).toBe('first read')
    expect(reads).toBe(1)
  })
})

describe('route output chunks: read once', () => {
  it('a chunk is copied once and the copy is what is checked and streamed', async () => {
    let reads = 0
    const chunk = Object.defineProperty({ type: 'text' }, 'content', {
      enumerable: true,
      get() {
        reads += 1
        return reads === 1 ? ' and more' : 42
      },
    })
    const { controller } = run(() => ({ text: 'Hello', chunks: [chunk] }) as RouteResult<Record<string, never>>)
    await controller.send('/start')
    expect(controller.getState().messages.at(-1)?.content).toBe('Hello and more')
    expect(reads).toBe(1)
  })
})

describe('fallback output: read once, inside the guarded region', () => {
  it('a fallback object whose text getter throws is a fallback error with a trace, not a generic stream failure', async () => {
    const def = defineChat({
      id: 'fallback-getter',
      chat: {},
      conversation: { initial: 'idle', states: { idle: { on: { reset: 'idle' } } }, routes: [], fallback: { response: () => throwingText() } },
    })
    const session = createChatSession(def, { sessionId: 's1', ids: (() => { let i = 0; return () => `t${++i}` })() })
    let m = 0
    const controller = createChatController(session.chat, { ids: () => `m${++m}`, clock: () => new Date(0) })
    controller.subscribe(() => session.sync(controller.getState().messages))
    await controller.send('anything')
    expect(controller.getState().status).toBe('error')
    expect(session.traces()[0]).toMatchObject({ kind: 'fallback', outcome: 'error', errorClass: 'TypeError', reason: 'fallback-threw' })
  })
})
