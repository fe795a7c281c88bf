import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatSession, readDecisionRecord } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { assistant, drain, turn, user } from './helpers.js'

/** A message whose `role` reads are counted: how much history reconciliation touched. */
function counted(message: Message, reads: { n: number }): Message {
  const copy = { ...message }
  const { role } = copy
  Object.defineProperty(copy, 'role', { enumerable: true, get: () => (reads.n++, role) })
  return copy
}

async function built(turns: number) {
  const session = createChatSession(createSupportBot(scriptedAdapter(['agent'])), { lint: false })
  const history: Message[] = []
  const texts = ['/help', 'hi']
  for (let i = 0; i < turns; i++) {
    history.push(user(texts[i % 2] as string, `h${i}`))
    const chunks = await turn(session.chat.adapter, history)
    history.push(assistant(chunks.map((c) => c.content ?? '').join(''), `r${i}`, { chatrail: chunks.at(-1)?.metadata?.chatrail }))
  }
  return { session, history }
}

describe('reconciliation cost', () => {
  it('extending a long history reads O(1) messages; an edit reads O(messages after it)', async () => {
    const { session, history } = await built(500)
    const reads = { n: 0 }
    const watched = history.map((m) => counted(m, reads))
    session.sync(watched, { full: true })
    reads.n = 0
    session.sync([...watched, counted(user('/start', 'new'), reads)])
    expect(reads.n).toBeLessThanOrEqual(4)
    reads.n = 0
    session.sync(watched.slice(0, 900))
    expect(reads.n).toBeLessThanOrEqual(6)
    // A controller edit of turn 400 drops what follows it: the walk stops at once.
    session.sync(watched, { full: true })
    reads.n = 0
    session.sync([...watched.slice(0, 800), counted(user('/start', 'h400'), reads)])
    expect(reads.n).toBeLessThanOrEqual(6)
    // Replacing the last 50 turns walks those 100 messages, not the 900 before them.
    session.sync(watched, { full: true })
    const replaced = Array.from({ length: 50 }, (_, i) => [counted(user('hi', `n${i}`), reads), counted(assistant('x', `nr${i}`), reads)]).flat()
    reads.n = 0
    session.sync([...watched.slice(0, 900), ...replaced])
    expect(reads.n).toBeGreaterThanOrEqual(100)
    expect(reads.n).toBeLessThanOrEqual(106)
    expect(session.getSnapshot().state).toBe('greeting')
  })
})

describe('state follows history', () => {
  it('a fresh session rebuilds the state from the decision records kept on the answers', async () => {
    const live = createChatSession(createSupportBot(), { lint: false })
    const history: Message[] = []
    for (const [i, text] of ['/start', '#123456', 'yes'].entries()) {
      history.push(user(text, `u${i}`))
      const chunks = await turn(live.chat.adapter, history)
      history.push(assistant('reply', `a${i}`, { chatrail: chunks.at(-1)?.metadata?.chatrail }))
    }
    expect(live.getSnapshot()).toMatchObject({ state: 'resolved', context: { orderNumber: '123456', reshipped: true } })
    const fresh = createChatSession(createSupportBot(), { lint: false })
    fresh.sync(history)
    expect(fresh.getSnapshot()).toEqual(live.getSnapshot())
    const record = readDecisionRecord(history[3] as Message)
    expect(record).toMatchObject({ v: 1, messageId: 'u1', kind: 'deterministic', routeId: 'order-number', event: 'order', fromState: 'collecting', toState: 'confirming', assign: { orderNumber: '123456' } })
    expect(JSON.stringify(record)).not.toContain('lost in transit')
  })

  it('records that do not fit are ignored: edited text, unknown route, illegal transition, wrong state', async () => {
    const live = createChatSession(createSupportBot(), { lint: false })
    const u0 = user('/start', 'u0')
    const chunks = await turn(live.chat.adapter, [u0])
    const record = chunks.at(-1)?.metadata?.chatrail as Record<string, unknown>
    const tries: [Message, Record<string, unknown>][] = [
      [{ ...u0, content: '/START' }, record],
      [u0, { ...record, routeId: 'nope' }],
      [u0, { ...record, event: 'confirm', toState: 'resolved' }],
      [u0, { ...record, fromState: 'escalated' }],
      [u0, { ...record, v: 2 }],
      [u0, { ...record, assign: { bad: Number.NaN } }],
    ]
    for (const [message, forged] of tries) {
      const fresh = createChatSession(createSupportBot(), { lint: false })
      fresh.sync([message, assistant('x', 'a0', { chatrail: forged })])
      expect(fresh.getSnapshot().state).toBe('greeting')
    }
  })

  it('an adopted record replays from its stored answer (seed 004: no route callback): regenerating streams the stored text', async () => {
    const live = createChatSession(createSupportBot(), { lint: false })
    const u0 = user('/start', 'u0')
    const chunks = await turn(live.chat.adapter, [u0])
    const fresh = createChatSession(createSupportBot(), { lint: false })
    fresh.sync([u0, assistant('the stored answer', 'a0', { chatrail: chunks.at(-1)?.metadata?.chatrail })])
    expect(fresh.getSnapshot().state).toBe('collecting')
    const replayed = await drain(fresh.chat.adapter.createSource({ messages: [u0, assistant('', 'a1')] }))
    expect(replayed.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content)).toEqual(['the stored answer'])
    expect(fresh.traces()[0]).toMatchObject({ routeId: 'start', replayed: true })
    expect(fresh.getSnapshot().state).toBe('collecting')
  })

  it('a user message that was never dispatched does not transition; `full` re-walks a rewritten middle', async () => {
    const session = createChatSession(createSupportBot(), { lint: false })
    session.sync([user('/start', 'x1')])
    expect(session.getSnapshot().state).toBe('greeting')
    const u0 = user('/start', 'u0')
    const u1 = user('#123456', 'u1')
    await turn(session.chat.adapter, [u0])
    await turn(session.chat.adapter, [u0, assistant('a', 'a0'), u1])
    expect(session.getSnapshot().state).toBe('confirming')
    // The middle is rewritten in place, the last user message kept: the fast path cannot see it…
    const rewritten = [{ ...u0, content: 'hello' }, assistant('a', 'a0'), u1]
    session.sync(rewritten)
    expect(session.getSnapshot().state).toBe('confirming')
    // …a full walk does.
    session.sync(rewritten, { full: true })
    expect(session.getSnapshot().state).toBe('greeting')
  })
})
