import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import type { JsonObject } from '../../src/conversation/json.js'
import { buildRouteIndex } from '../../src/conversation/route-index.js'
import { commandRoute, eventRoute, type Route } from '../../src/conversation/routes.js'
import { createChatSession, defineChat, type ChatSession } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/scripted-adapter.js'

/**
 * Issue 32 (1): what a state asks of the route table (its restart event) is worked out once per
 * definition, so a snapshot — built at session creation and on every state change — never walks
 * the routes. Counted, not timed: every route is a proxy that counts the reads of its fields, and
 * after the first session (which compiles the definition) a state change or a second session must
 * read none of them beyond the one route a turn fires. Walking the table made it N reads a snapshot.
 */

let reads = 0
const counted = <R extends object>(route: R): R =>
  new Proxy(route, {
    get(target, key, receiver) {
      reads++
      return Reflect.get(target, key, receiver) as unknown
    },
  })

let ids = 0
const user = (content: string): Message => ({ id: `m${++ids}`, role: 'user', content, status: 'complete', createdAt: new Date(0) })

async function dispatch(session: ChatSession, messages: Message[]): Promise<string> {
  let text = ''
  for await (const chunk of session.chat.adapter.createSource({ messages }).stream()) if (chunk.type === 'text') text += chunk.content
  return text
}

/** A ring `a ⇄ b` on `go` with `n` command routes firing it, and a restart button offered in `b` only. */
function ring(n: number) {
  const routes: Route<JsonObject, 'go', 'a' | 'b'>[] = Array.from({ length: n }, (_, i) => counted(commandRoute({ id: `r${i}`, command: `/cmd${i}`, event: 'go', response: `resp${i}` })))
  routes.push(counted(eventRoute({ id: 'over', uiEvent: 'start_over', states: ['b'], restart: true, response: 'Again.' })))
  return defineChat({
    id: `ring-${n}`,
    chat: { adapter: scriptedAdapter([]) },
    conversation: { initial: 'a', states: { a: { on: { go: 'b' } }, b: { on: { go: 'a' } } }, routes },
  })
}

/** Route-field reads of `turns` state-changing turns (a → b, each from a new one-message history) and a second session. */
async function readsAfterCompile(n: number, turns: number): Promise<{ perTurn: number; secondSession: number }> {
  const definition = ring(n)
  const session = createChatSession(definition, { lint: false })
  expect(session.getSnapshot()).toMatchObject({ state: 'a' })
  expect(session.getSnapshot().restart).toBeUndefined()
  reads = 0
  for (let turn = 0; turn < turns; turn++) {
    expect(await dispatch(session, [user('/cmd0')])).toBe('resp0')
    expect(session.getSnapshot()).toMatchObject({ state: 'b', restart: 'start_over' })
  }
  const perTurn = reads / turns
  reads = 0
  const second = createChatSession(definition, { lint: false })
  expect(second.getSnapshot().state).toBe('a')
  return { perTurn, secondSession: reads }
}

describe('per-state facts are compiled once (issue 32)', () => {
  it('a state change and a second session read no more routes at 2,000 routes than at 10', async () => {
    const few = await readsAfterCompile(10, 20)
    const many = await readsAfterCompile(2000, 20)
    // The fired route is read (its kind, response, event …): a constant handful a turn, whatever N.
    expect(many.perTurn).toBe(few.perTurn)
    expect(many.perTurn).toBeLessThan(50)
    expect(many.secondSession).toBe(0)
    expect(few.secondSession).toBe(0)
  })
})

describe('the restart event of a state', () => {
  it('is the first restart event route, in declaration order, that the state allows', () => {
    const index = buildRouteIndex([
      commandRoute({ id: 'c', command: '/x', event: 'go', response: 'x' }),
      eventRoute({ id: 'plain', uiEvent: 'plain', response: 'p' }),
      eventRoute({ id: 'only-b', uiEvent: 'over_b', states: ['b'], restart: true, response: 'b' }),
      eventRoute({ id: 'any', uiEvent: 'over_any', restart: true, response: 'any' }),
      eventRoute({ id: 'only-a', uiEvent: 'over_a', states: ['a'], restart: true, response: 'a' }),
    ])
    expect(index.restartEvent('a')).toBe('over_any')
    expect(index.restartEvent('b')).toBe('over_b')
    expect(index.restartEvent('c')).toBe('over_any')
    const scoped = buildRouteIndex([
      eventRoute({ id: 'only-a', uiEvent: 'over_a', states: ['a', 'c'], restart: true, response: 'a' }),
      eventRoute({ id: 'only-a2', uiEvent: 'over_a2', states: ['a', 'b'], restart: true, response: 'a2' }),
    ])
    expect([scoped.restartEvent('a'), scoped.restartEvent('b'), scoped.restartEvent('c'), scoped.restartEvent('d')]).toEqual(['over_a', 'over_a2', 'over_a', undefined])
    expect(buildRouteIndex([]).restartEvent('a')).toBeUndefined()
  })
})
