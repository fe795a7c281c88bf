import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import type { ConversationDetail, ConversationListPage, DevtoolsTurn } from '../../src/devtools/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { everyStore } from '../server/support/every-store.js'
import { apiHarness, TOKEN, type ApiHarness } from './api/api-harness.js'

// A long conversation (over the 1,000 messages the devtools read whole on a request's path): its
// first open reads only its newest messages (the store's ranged load) and says so, the whole walk
// runs beside the requests, and from then on the page is cut from it, exact, with earlier pages
// to read back to the first turn. The listing shows it at once from its newest turns. And a
// regenerate answered from the stored decision is told from the turn it replays.

let clockAt = Date.UTC(2026, 0, 1)
const clock = (): number => (clockAt += 1)

/** A stored history with every id (and every record's `messageId`) made unique to `prefix`. */
function cloned(messages: readonly Message[], prefix: string): Message[] {
  return messages.map((message) => {
    const record = (message.metadata as { chatrail?: { messageId?: string; turnId?: string } } | undefined)?.chatrail
    const metadata = record?.messageId === undefined ? message.metadata : { ...message.metadata, chatrail: { ...record, messageId: `${prefix}${record.messageId}`, turnId: `${prefix}${record.turnId ?? ''}` } }
    return { ...message, id: `${prefix}${message.id}`, ...(metadata === undefined ? {} : { metadata }) }
  })
}

const LOOPS = 300 // × (/start, /cancel) = 600 turns, 1,200 messages

/** Reads `path` until `done` holds of it (the whole walk runs beside the requests); bounded. */
async function until<T>(h: ApiHarness, path: string, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await h.json<T>(path)
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`${path} never settled`)
}

async function longConversation(store: ConversationStore, h: ApiHarness): Promise<Message[]> {
  await h.turn('template', '/start')
  await h.turn('template', '/cancel')
  const loop = (await store.load('template'))?.messages ?? []
  const long = Array.from({ length: LOOPS }, (_, i) => cloned(loop, `l${i}-`)).flat()
  // the harness's principal owns it, as it owns what its turns write
  await store.append('long', { expectedVersion: 0, messages: long, definition: { id: 'lost-card', revision: 1 }, owner: 'developer' })
  return long
}

describe.each(everyStore('devtools_long', 'devtools long conversations'))('devtools API on %s', (_name, makeStore) => {
  it('opens a long conversation from its newest messages, then pages the whole walk back to the first turn', async () => {
    const store = await makeStore({ clock })
    const h = apiHarness(store, { warmUp: false })
    const long = await longConversation(store, h)
    const first = await h.json<ConversationDetail>('/conversations/long?turns=50')
    expect(first.page).toMatchObject({ complete: false, firstTurn: 0, turnCount: null })
    expect(first.turns).toHaveLength(50)
    expect(first.context).toBeNull()
    // the newest turns, in order, numbered from the page; states as their records say
    expect(first.turns.at(-1)?.userMessageId).toBe(long.findLast((m) => m.role === 'user')?.id)
    expect(first.turns.map((turn) => turn.index)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(first.turns.at(-1)).toMatchObject({ kind: 'deterministic', routeId: 'cancel' })
    expect(first.messages.every((message) => message.turn !== undefined && message.turn < 50)).toBe(true)

    const exact = await until<ConversationDetail>(h, '/conversations/long?turns=50', (detail) => detail.page.complete)
    expect(exact.page).toEqual({ complete: true, firstTurn: 550, turnCount: 600, earlier: exact.turns[0]?.userMessageId })
    expect(exact.context).not.toBeNull()
    expect(exact.turns.map((turn) => turn.index)).toEqual(Array.from({ length: 50 }, (_, i) => 550 + i))
    // the partial page told the same turns apart the same way (only the numbering differs)
    const strip = (turn: DevtoolsTurn): Omit<DevtoolsTurn, 'index'> => {
      const { index: _index, ...rest } = turn
      return rest
    }
    expect(first.turns.map(strip)).toEqual(exact.turns.map(strip))
    // back to the first turn, page by page: every turn once, in order, with its messages
    const turns: DevtoolsTurn[] = [...exact.turns]
    let messages = exact.messages.length
    let earlier = exact.page.earlier
    for (let pages = 0; earlier !== undefined && pages < 20; pages++) {
      const page = await h.json<ConversationDetail>(`/conversations/long?turns=200&before=${earlier}`)
      expect(page.page.complete).toBe(true)
      turns.unshift(...page.turns)
      messages += page.messages.length
      earlier = page.page.earlier
    }
    expect(earlier).toBeUndefined()
    expect(turns.map((turn) => turn.index)).toEqual(Array.from({ length: 600 }, (_, i) => i))
    expect(turns.map((turn) => turn.userMessageId)).toEqual(long.filter((m) => m.role === 'user').map((m) => m.id))
    expect(messages).toBe(long.length)
    // a page whose end was cut by an edit: 409, read the newest again
    const last = long.length - 2
    await store.append('long', { expectedVersion: 1, truncateAfter: long[last - 3]?.id as string, messages: [], definition: { id: 'lost-card', revision: 1 }, owner: 'developer' })
    const stale = await h.get(`/conversations/long?before=${long[last]?.id as string}`)
    expect(stale.status).toBe(409)
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('conversation_changed')
    expect((await h.get('/conversations/long?turns=0')).status).toBe(400)
    expect((await h.get('/conversations/long?turn=5')).status).toBe(400)
  }, 60_000)

  it('lists a long conversation at once from its newest turns, exact once walked; a history filter walks it whole', async () => {
    const store = await makeStore({ clock })
    const h = apiHarness(store, { warmUp: false })
    await longConversation(store, h)
    const listed = await h.json<ConversationListPage>('/conversations?limit=2')
    expect(listed.conversations[0]).toMatchObject({ id: 'long', partial: true, lastKind: 'deterministic', state: 'greeting' })
    expect(listed.conversations[0]?.turnCount).toBeLessThan(600)
    // a filter the newest turns cannot decide (the state through today's definition) walks it whole now
    const filtered = await h.json<ConversationListPage>('/conversations?state=greeting')
    expect(filtered.conversations.find((item) => item.id === 'long')).toMatchObject({ partial: false, turnCount: 600, failedTurns: 0 })
    // one they can (the last turn's kind) does not need to
    expect((await h.json<ConversationListPage>('/conversations?lastKind=refused')).conversations).toEqual([])
    expect((await h.json<ConversationListPage>('/conversations?limit=1')).conversations[0]).toMatchObject({ id: 'long', partial: false, turnCount: 600 })
  }, 60_000)

  it('a regenerate answered from the stored decision is a replayed turn, naming the answer it replays', async () => {
    const store = await makeStore({ clock })
    const h = apiHarness(store)
    await h.turn('c-replay', '/start')
    const answer = (await store.load('c-replay'))?.messages[1] as Message
    const user = (await store.load('c-replay'))?.messages[0] as Message
    const response = await h.chat(new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ id: 'c-replay', trigger: 'regenerate-message', messageId: answer.id, messages: [{ id: user.id, role: 'user', parts: [{ type: 'text', text: '/start' }] }] }),
    }))
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('"replayed":true')
    const detail = await h.json<ConversationDetail>('/conversations/c-replay')
    expect(detail.turns).toHaveLength(1)
    expect(detail.turns[0]).toMatchObject({ kind: 'replayed', replayOf: answer.id, routeId: 'start', record: { kind: 'deterministic' }, fromState: 'greeting', toState: 'identify' })
    expect(detail.turns[0]?.answerIds).not.toContain(answer.id)
    expect(detail.state).toBe('identify')
    expect((await h.json<ConversationListPage>('/conversations?lastKind=replayed')).conversations.map((item) => item.id)).toEqual(['c-replay'])
    // the turn it replays, before the regenerate, was deterministic (and another conversation's still is)
    await h.turn('c-plain', '/start')
    expect((await h.json<ConversationDetail>('/conversations/c-plain')).turns[0]).toMatchObject({ kind: 'deterministic' })
    expect((await h.json<ConversationDetail>('/conversations/c-plain')).turns[0]?.replayOf).toBeUndefined()
  })
})

describe('devtools API on a store written before ranges and newest-first listing', () => {
  it('opens a long conversation whole from a store whose load takes no range; says so when its list takes no order', async () => {
    const inner = memoryStore({ clock })
    // a third party's store of the previous port: load(id) only, list oldest first whatever it is asked
    const old: ConversationStore = {
      ...inner,
      kind: 'old-redis',
      load: (conversationId) => inner.load(conversationId),
      list: ({ order: _order, ...options } = {}) => inner.list(options),
    }
    const h = apiHarness(old, { warmUp: false })
    const long = await longConversation(old, h)
    const detail = await h.json<ConversationDetail>('/conversations/long?turns=50')
    expect(detail.page).toEqual({ complete: true, firstTurn: 550, turnCount: 600, earlier: detail.turns[0]?.userMessageId })
    expect(detail.turns.at(-1)?.userMessageId).toBe(long.findLast((m) => m.role === 'user')?.id)
    const listed = await h.get('/conversations')
    expect(listed.status).toBe(501)
    const { error } = (await listed.json()) as { error: { code: string; message: string } }
    expect(error.code).toBe('store_order_unsupported')
    expect(error.message).toContain('old-redis')
  })
})

describe('a walk beside the requests', () => {
  it('reads its first chunk only once the listing that started it has answered (an embedded store runs one query at a time)', async () => {
    const base = memoryStore({ clock })
    const events: string[] = []
    const store: ConversationStore = {
      ...base,
      load: (conversationId, options) => {
        events.push(options?.lastMessages === 1000 ? 'walk chunk' : 'load')
        return base.load(conversationId, options)
      },
      loadDecisions: (conversationIds) => {
        events.push('decisions')
        return (base.loadDecisions as NonNullable<ConversationStore['loadDecisions']>)(conversationIds)
      },
    }
    const h = apiHarness(store, { warmUp: false })
    // older short conversations, so the listing reads facts after the long one's (the newest)
    for (let i = 0; i < 30; i++) await h.turn(`short-${i}`, '/start')
    await longConversation(store, h)
    events.length = 0
    const page = await h.json<ConversationListPage>('/conversations?limit=50')
    events.push('answered')
    expect(page.conversations[0]).toMatchObject({ id: 'long', partial: true })
    // the short ones' facts in one read per batch, not a load each
    expect(events.filter((event) => event === 'decisions').length).toBeGreaterThan(0)
    expect(events.slice(0, events.indexOf('answered')).filter((event) => event === 'load')).toHaveLength(1)
    const exact = await until<ConversationListPage>(h, '/conversations?limit=50', (value) => value.conversations[0]?.partial === false)
    expect(exact.conversations[0]).toMatchObject({ id: 'long', turnCount: LOOPS * 2 })
    // its first chunk came after every read of the listing (not between them)
    const listingReads = events.slice(0, events.indexOf('answered')).filter((event) => event !== 'walk chunk')
    expect(listingReads.length).toBeGreaterThan(1)
    expect(events.indexOf('walk chunk')).toBeGreaterThan(events.lastIndexOf(listingReads.at(-1) as string, events.indexOf('answered')))
  })
})
