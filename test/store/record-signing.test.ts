import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatController } from '../../src/controller/index.js'
import { commandRoute, createChatSession, defineChat, isChatrailConfigError, patternRoute, readDecisionRecord, type ChatSessionOptions, type JsonObject } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { runAdapterContract } from '../../src/testing/vitest.js'
import { drain } from '../conversation/helpers.js'

// Issue 16 § Trust: a client that edits metadata.chatrail.assign in the history it sends could set
// the server session's context. Guards are re-checked on adoption; assign was not.

type Ctx = { deliveryDate?: string }
const KEY = 'k'.repeat(32)

const definition = defineChat<Ctx>({
  id: 'delivery',
  chat: { adapter: scriptedAdapter(['agent']) },
  conversation: {
    initial: 'idle',
    context: {},
    states: {
      idle: { on: { start: 'asking' } },
      asking: { on: { date: 'booked' } },
      booked: { on: { start: 'asking' } },
    },
    routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which day?' }),
      patternRoute({ id: 'date', pattern: /^deliver on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/, event: 'date', assign: true, response: 'Booked.' }),
    ],
  },
})

/** Runs `/start` and a date through a real controller; returns the history the client holds. */
async function honestHistory(options: ChatSessionOptions<Ctx>, more: readonly string[] = []): Promise<Message[]> {
  const session = createChatSession(definition, { lint: false, ...options })
  let m = 0
  const controller = createChatController(session.chat, { ids: () => `m${++m}`, clock: () => new Date(0) })
  await controller.send('/start')
  await controller.send('deliver on 2030-05-01')
  expect(session.getSnapshot().context).toEqual({ deliveryDate: '2030-05-01' })
  for (const text of more) await controller.send(text)
  return structuredClone(controller.getState().messages)
}

/** The client's edit: the last answer's record now assigns another date (and a discount). */
function forge(history: Message[]): Message[] {
  const forged = structuredClone(history)
  const answer = forged.at(-1)
  const record = answer?.metadata?.chatrail as { assign?: JsonObject } | undefined
  if (!record?.assign) throw new Error('the answer carries no record to forge')
  record.assign = { deliveryDate: '1999-01-01', discount: 100 }
  return forged
}

const nextTurn = (history: Message[]): Message[] => [...history, { id: 'u-next', role: 'user', content: 'what now?', status: 'complete', createdAt: new Date(0) }]

describe('decision record signing (recordKey)', () => {
  it('reproduction: without a key, an edited assign in client history sets the context', async () => {
    const forged = forge(await honestHistory({}))
    const server = createChatSession(definition, { lint: false })
    server.sync(forged)
    expect(server.getSnapshot().context).toEqual({ deliveryDate: '1999-01-01', discount: 100 })
  })

  it('with a key, records are signed; a fresh keyed session adopts them from history', async () => {
    const history = await honestHistory({ recordKey: KEY })
    const record = readDecisionRecord(history.at(-1)!)
    expect(record?.sig).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const server = createChatSession(definition, { lint: false, recordKey: KEY })
    const chunks = await drain(server.chat.adapter.createSource({ messages: nextTurn(history) }))
    expect(chunks.at(-1)?.type).toBe('done')
    expect(server.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
    expect(server.traces().at(-1)?.untrustedRecords).toBeUndefined()
  })

  it('with a key, a forged record is ignored and its turn re-derived from the text; the trace counts both', async () => {
    const forged = forge(await honestHistory({ recordKey: KEY }))
    const server = createChatSession(definition, { lint: false, recordKey: KEY })
    await drain(server.chat.adapter.createSource({ messages: nextTurn(forged) }))
    // The date the user typed, as the route reads it now; never the forged date or discount.
    expect(server.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
    expect(server.traces().at(-1)).toMatchObject({ messageId: 'u-next', untrustedRecords: 1, rederivedTurns: 1 })
    // sync alone (no turn) never adopts a record it has not verified either: both turns re-derived.
    const other = createChatSession(definition, { lint: false, recordKey: KEY })
    other.sync(forged)
    expect(other.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
  })

  it('with a key, a turn whose route is asynchronous is not re-derived: it stays undecided', async () => {
    const slow = defineChat<Ctx>({
      ...definition,
      conversation: {
        ...definition.conversation,
        routes: [definition.conversation.routes[0]!, patternRoute({ id: 'date', pattern: /^deliver on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/, event: 'date', assign: true, response: async () => 'Booked.' })],
      },
    })
    const history = await honestHistory({ recordKey: KEY })
    const forged = forge(history)
    const server = createChatSession(slow, { lint: false, recordKey: KEY })
    server.sync(forged)
    expect(server.getSnapshot()).toMatchObject({ state: 'asking', context: {} })
  })

  it('with a key, records verified by a turn replace what an earlier sync re-derived or left undecided', async () => {
    const slow = defineChat<Ctx>({
      ...definition,
      conversation: {
        ...definition.conversation,
        routes: [definition.conversation.routes[0]!, patternRoute({ id: 'date', pattern: /^deliver on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/, event: 'date', assign: true, response: async () => 'Booked.' })],
      },
    })
    // /start, the date, /start again (booked → asking, the date kept in context).
    const history = await honestHistory({ recordKey: KEY }, ['/start'])
    const server = createChatSession(slow, { lint: false, recordKey: KEY })
    // Not verified yet: the async date route cannot be re-derived, so the date turn is undecided
    // and the second /start (declared only in idle and booked) has nothing to apply to.
    server.sync(history)
    expect(server.getSnapshot()).toMatchObject({ state: 'asking', context: {} })
    // The turn verifies every record; the date turn is not the reconciliation's anchor, so only a
    // full re-walk adopts its record.
    await drain(server.chat.adapter.createSource({ messages: nextTurn(history) }))
    expect(server.getSnapshot()).toMatchObject({ state: 'asking', context: { deliveryDate: '2030-05-01' } })
    expect(server.traces().at(-1)?.untrustedRecords).toBeUndefined()
  })

  it('with a key, every field of the record is signed, a nested "sig" key included', async () => {
    const history = await honestHistory({ recordKey: KEY })
    const forged = structuredClone(history)
    const record = forged.at(-1)?.metadata?.chatrail as { assign: JsonObject }
    record.assign = { ...record.assign, sig: 'smuggled' }
    const server = createChatSession(definition, { lint: false, recordKey: KEY })
    await drain(server.chat.adapter.createSource({ messages: nextTurn(forged) }))
    expect(server.getSnapshot().context).toEqual({ deliveryDate: '2030-05-01' }) // re-derived, no smuggled key
    expect(server.traces().at(-1)?.untrustedRecords).toBe(1)
  })

  it('with a key, unsigned records (from a keyless session) and records signed with another key are ignored', async () => {
    for (const history of [await honestHistory({}), await honestHistory({ recordKey: 'another-secret-of-32-bytes-here!' })]) {
      const server = createChatSession(definition, { lint: false, recordKey: KEY })
      await drain(server.chat.adapter.createSource({ messages: nextTurn(history) }))
      expect(server.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
      expect(server.traces().at(-1)).toMatchObject({ untrustedRecords: 2, rederivedTurns: 2 })
    }
  })

  it('with a key, a turn verifies only the messages it has not seen; a forged record is still counted on every turn', async () => {
    // 30 honest turns, then the last answer's record forged.
    const history = forge(await honestHistory({ recordKey: KEY }, Array.from({ length: 28 }, (_, i) => (i % 2 === 0 ? '/start' : 'deliver on 2030-05-01'))))
    // Each request counts the messages read through its history view, and reads of its array.
    let reads = 0
    let arrays = 0
    const request = (messages: Message[]) => {
      const view = { length: messages.length, at: (index: number) => (reads++, messages.at(index)) }
      const counted = Object.defineProperty({}, 'messages', { get: () => (arrays++, messages), enumerable: true }) as { messages: Message[] }
      return Object.defineProperty(counted, Symbol.for('chatrail.historyView'), { value: view })
    }
    const message = (id: string, role: 'user' | 'assistant', content: string): Message => ({ id, role, content, status: 'complete', createdAt: new Date(0) })
    const server = createChatSession(definition, { lint: false, recordKey: KEY })
    const first = [...history, message('u-1', 'user', 'what now?')]
    await drain(server.chat.adapter.createSource(request(first)))
    expect(reads).toBeGreaterThan(history.length) // a history never seen is read whole, once
    expect(server.traces().at(-1)).toMatchObject({ messageId: 'u-1', untrustedRecords: 1 })
    reads = 0
    await drain(server.chat.adapter.createSource(request([...first, message('a-1', 'assistant', 'agent'), message('u-2', 'user', 'and now?')])))
    expect(reads).toBeLessThan(20) // a dozen; the whole history (60 messages), every turn, before
    expect(arrays).toBe(0) // nor is the history array built
    expect(server.traces().at(-1)).toMatchObject({ messageId: 'u-2', untrustedRecords: 1 })
    expect(server.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
  })

  it('with a key, messages added or removed before those verified already are read again (state and counts as for a new history)', async () => {
    const message = (id: string, role: 'user' | 'assistant', content: string): Message => ({ id, role, content, status: 'complete', createdAt: new Date(0) })
    const seenFirst = async (server: ReturnType<typeof createChatSession<Ctx>>, first: Message) => drain(server.chat.adapter.createSource({ messages: [first] }))
    // Earlier (honest) messages loaded in front of messages the session has verified: their records are adopted.
    const honest = await honestHistory({ recordKey: KEY })
    const loaded = createChatSession(definition, { lint: false, recordKey: KEY })
    const hello = message('x1', 'user', 'hello')
    await seenFirst(loaded, hello)
    await drain(loaded.chat.adapter.createSource({ messages: [...honest, hello, message('xa1', 'assistant', 'agent'), message('x2', 'user', 'what now?')] }))
    expect(loaded.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
    // A forged record loaded in front is counted.
    const forgedInFront = createChatSession(definition, { lint: false, recordKey: KEY })
    await seenFirst(forgedInFront, hello)
    await drain(forgedInFront.chat.adapter.createSource({ messages: [...forge(honest), hello, message('xa1', 'assistant', 'agent'), message('x2', 'user', 'what now?')] }))
    expect(forgedInFront.traces().at(-1)?.untrustedRecords).toBe(1)
    // The forged exchange removed (later messages kept): no longer counted.
    const forged = forge(honest)
    const cleaned = createChatSession(definition, { lint: false, recordKey: KEY })
    const next = message('u-1', 'user', 'what now?')
    await drain(cleaned.chat.adapter.createSource({ messages: [...forged, next] }))
    expect(cleaned.traces().at(-1)?.untrustedRecords).toBe(1)
    await drain(cleaned.chat.adapter.createSource({ messages: [...forged.slice(0, 2), next, message('a-1', 'assistant', 'agent'), message('u-2', 'user', 'and now?')] }))
    expect(cleaned.traces().at(-1)?.untrustedRecords).toBeUndefined()
  })

  it('history the host vouches for (its own store) is adopted without a signature', async () => {
    const unsigned = await honestHistory({})
    const server = createChatSession(definition, { lint: false, recordKey: KEY })
    server.sync(unsigned, { trusted: true })
    expect(server.getSnapshot()).toMatchObject({ state: 'booked', context: { deliveryDate: '2030-05-01' } })
  })

  it('a key shorter than 16 bytes is a config error naming recordKey', () => {
    let error: unknown
    try {
      createChatSession(definition, { lint: false, recordKey: 'short' })
    } catch (thrown) {
      error = thrown
    }
    expect(isChatrailConfigError(error) && error.path).toEqual(['recordKey'])
  })
})

// A keyed session's adapter is still an adapter: the contract's invariants hold with signing around each turn.
runAdapterContract('conversation session with a recordKey (deterministic route)', () => createChatSession(definition, { lint: false, recordKey: KEY }).chat.adapter, {
  request: () => ({ messages: [{ id: 'u1', role: 'user', content: '/start', status: 'complete', createdAt: new Date(0) }] }),
  skip: { A5: 'the route emits no tool calls' },
})
