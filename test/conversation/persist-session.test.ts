import { describe, expect, it, vi } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatController } from '../../src/controller/index.js'
import { MAX_DECISIONS } from '../../src/conversation/persist-envelope.js'
import {
  commandRoute,
  createChatSession,
  defineChat,
  isChatrailConfigError,
  isSessionConflictError,
  resolveChatSession,
  resumeChatSession,
  type ChatrailConfigError,
  type SessionSnapshotEnvelope,
} from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { assistant, textOf, turn, user } from './helpers.js'
import { counted, memoryStorage } from './persist-helpers.js'

const fixedClock = () => new Date('2026-07-11T00:00:00Z')

describe('persist() and resumeChatSession', () => {
  it('round-trips state, context and decisions through storage, cursor by cursor', async () => {
    const storage = memoryStorage()
    const { definition } = counted()
    const first = createChatSession(definition, { sessionId: 's1', storage, clock: fixedClock })
    const m1 = user('/start', 'u1')
    await turn(first.chat.adapter, [m1])
    await turn(first.chat.adapter, [m1, assistant('What is your name? (1)', 'a1'), user('/name Ada', 'u2')])
    await first.persist()
    const stored = storage.saved.get('s1')
    expect(stored).toMatchObject({ protocol: 'chatrail.session', version: 1, sessionId: 's1', definitionId: 'persisted', definitionRevision: 1, updatedAt: '2026-07-11T00:00:00.000Z' })
    expect(stored?.conversation.state).toBe('done')
    expect(stored?.conversation.context).toEqual({ name: 'Ada' })
    expect(stored?.conversation.decisions.map((d) => d.messageId)).toEqual(['u1', 'u2'])
    // background saves after each turn plus the explicit one, serialised: the cursor counts them
    expect(first.getCursor()).toBe(stored?.cursor)
    expect(stored?.cursor).toBe(storage.saves)

    const resumed = await resumeChatSession(definition, { sessionId: 's1', storage })
    expect(resumed.getSnapshot()).toMatchObject({ state: 'done', context: { name: 'Ada' } })
    expect(resumed.getCursor()).toBe(stored?.cursor)
  })

  it('resuming an id with nothing stored is a fresh session with that id', async () => {
    const { definition } = counted()
    const resumed = await resumeChatSession(definition, { sessionId: 'nothing-yet', storage: memoryStorage() })
    expect(resumed.sessionId).toBe('nothing-yet')
    expect(resumed.getSnapshot().state).toBe('idle')
    expect(resumed.getCursor()).toBe(0)
  })

  it('retry and regenerate after resume replay the stored answer: no route callback, no model call', async () => {
    const storage = memoryStorage()
    const { definition, calls, model } = counted()
    const first = createChatSession(definition, { sessionId: 's2', storage })
    const controller = createChatController(first.chat)
    await controller.send('/start')
    await first.persist()
    const history = controller.getState().messages.map((message) => ({ ...message })) as Message[]
    expect(calls.start).toBe(1)

    const resumed = await resumeChatSession(definition, { sessionId: 's2', storage })
    const again = createChatController({ ...resumed.chat, initialMessages: history })
    await again.retry()
    await again.regenerate()
    expect(again.getState().messages.at(-1)?.content).toBe('What is your name? (1)')
    expect(calls.start).toBe(1)
    expect(model.calls).toHaveLength(0)
    expect(resumed.getSnapshot().state).toBe('asking')
    // and the bare request (the user message alone, AgentsKit's shape) replays too
    const bare = await resumeChatSession(definition, { sessionId: 's2', storage })
    expect(textOf(await turn(bare.chat.adapter, [history[0] as Message]))).toBe('What is your name? (1)')
    expect(calls.start).toBe(1)
  })

  it('stores no no-op agentic turn, and drops a decision whose turn was edited into an agentic one', async () => {
    const storage = memoryStorage()
    const { definition } = counted()
    const session = createChatSession(definition, { sessionId: 's3', storage })
    await turn(session.chat.adapter, [user('/start', 'u1')])
    await session.persist()
    expect(storage.saved.get('s3')?.conversation.decisions).toHaveLength(1)
    await turn(session.chat.adapter, [user('changed', 'u1')])
    await session.persist()
    expect(storage.saved.get('s3')?.conversation.decisions).toEqual([])
    const resumed = await resumeChatSession(definition, { sessionId: 's3', storage })
    expect(resumed.getSnapshot().state).toBe('idle')
  })

  it('a save that lost the compare-and-swap rejects with SessionConflictError; a background one is reported', async () => {
    const storage = memoryStorage()
    const { definition } = counted()
    const seed = createChatSession(definition, { sessionId: 's4', storage })
    await seed.persist()
    const errors: unknown[] = []
    const [a, b] = await Promise.all([
      resumeChatSession(definition, { sessionId: 's4', storage }),
      resumeChatSession(definition, { sessionId: 's4', storage, onPersistError: (error) => errors.push(error) }),
    ])
    await a.persist()
    const lost = await b.persist().then(() => undefined, (error: unknown) => error)
    expect(isSessionConflictError(lost)).toBe(true)
    expect(lost).toMatchObject({ code: 'SESSION_CONFLICT', sessionId: 's4', expectedCursor: 1 })
    // a turn's background save loses the race too: reported, not swallowed
    await turn(b.chat.adapter, [user('/start', 'u1')])
    await vi.waitFor(() => expect(errors.some(isSessionConflictError)).toBe(true))
    expect(storage.saved.get('s4')?.conversation.decisions).toEqual([])
  })

  it('persist() without storage rejects with ChatrailConfigError', async () => {
    const session = createChatSession(counted().definition)
    await expect(session.persist()).rejects.toMatchObject({ code: 'CONFIG_INVALID' })
    await expect(session.persist()).rejects.toThrow(/has no storage/)
  })

  it('refuses a snapshot of another definition, revision or format, and decisions that no longer replay', async () => {
    const storage = memoryStorage()
    const { definition } = counted()
    const session = createChatSession(definition, { sessionId: 's5', storage })
    await turn(session.chat.adapter, [user('/start', 'u1')])
    await session.persist()
    const other = defineChat({ ...counted().definition, id: 'other' })
    await expect(resumeChatSession(other, { sessionId: 's5', storage })).rejects.toThrow(/definition "persisted", not "other"/)
    await expect(resumeChatSession(counted(2).definition, { sessionId: 's5', storage })).rejects.toThrow(/revision 1 of "persisted", this is revision 2/)
    const withoutStart = defineChat({ id: 'persisted', chat: { adapter: scriptedAdapter([]) }, conversation: { initial: 'idle', states: { idle: { on: { start: 'asking' } }, asking: { final: true } }, routes: [] } })
    const replay = await resumeChatSession(withoutStart, { sessionId: 's5', storage }).then(() => undefined, (error: unknown) => error)
    expect(isChatrailConfigError(replay)).toBe(true)
    expect((replay as ChatrailConfigError).issues[0]?.code).toBe('incompatible_session_snapshot')
    expect(String((replay as Error).message)).toMatch(/incompatible: decision 0 \(route "start"/)
    const foreign = { load: () => ({ protocol: 'agentskit.chat.session', version: 1 }), save: () => true }
    await expect(resumeChatSession(definition, { sessionId: 's5', storage: foreign })).rejects.toThrow(/not a chatrail.session snapshot/)
    const wrongState = { load: () => ({ ...structuredClone(storage.saved.get('s5')), conversation: { ...structuredClone(storage.saved.get('s5'))?.conversation, state: 'done' } }), save: () => true }
    await expect(resumeChatSession(definition, { sessionId: 's5', storage: wrongState })).rejects.toThrow(/replay to state "asking", not the stored "done"/)
  })

  it('holds its bounds: at most 1,000 decisions written or read', async () => {
    const definition = defineChat({
      id: 'long',
      chat: { adapter: scriptedAdapter([]) },
      conversation: { initial: 'idle', states: { idle: { on: { ping: 'idle' } } }, routes: [commandRoute({ id: 'ping', command: '/ping', event: 'ping', response: 'pong' })] },
    })
    // kept by reference (no copy per save): 1,001 background saves stay linear
    let saved: SessionSnapshotEnvelope | undefined
    const storage = { load: () => saved, save: (snapshot: SessionSnapshotEnvelope, expected: number | undefined) => (saved?.cursor === expected ? ((saved = snapshot), true) : false) }
    const session = createChatSession(definition, { sessionId: 'long', storage, onPersistError: () => undefined })
    const history: Message[] = []
    for (let i = 0; i <= MAX_DECISIONS; i++) {
      history.push(user('/ping', `p${i}`))
      await turn(session.chat.adapter, history)
      history.push(assistant('pong', `r${i}`))
    }
    await expect(session.persist()).rejects.toMatchObject({ issues: [{ code: 'session_too_long' }] })
    const last = saved as SessionSnapshotEnvelope
    expect(last.conversation.decisions).toHaveLength(MAX_DECISIONS)
    const tooMany = { ...last, conversation: { ...last.conversation, decisions: [...last.conversation.decisions, { ...last.conversation.decisions[0], messageId: 'extra' }] } }
    await expect(resumeChatSession(definition, { sessionId: 'long', storage: { load: () => tooMany, save: () => true } })).rejects.toMatchObject({ issues: [{ code: 'corrupt_session_snapshot', path: ['snapshot', 'conversation', 'decisions'] }] })
  })

  it('an aborted signal rejects persist() before storage is called', async () => {
    const storage = memoryStorage()
    const session = createChatSession(counted().definition, { sessionId: 'aborted', storage })
    const controller = new AbortController()
    controller.abort(new Error('stopped'))
    await expect(session.persist(controller.signal)).rejects.toThrow('stopped')
    expect(storage.saves).toBe(0)
  })

  it('resolveChatSession keeps a session of the same definition and refuses another', () => {
    const { definition } = counted()
    const session = createChatSession(definition, { sessionId: 'mine' })
    expect(resolveChatSession(definition, session)).toBe(session)
    expect(() => resolveChatSession(counted(2).definition, session)).toThrow(/incompatible/)
    expect(resolveChatSession(definition, undefined, { createId: () => 'made' }).sessionId).toBe('made')
  })
})

describe('confirmations in the snapshot', () => {
  const action = { name: 'refund', input: { order: 'o-1' } }

  it('a pending confirmation survives resume and is approved exactly once', async () => {
    const storage = memoryStorage()
    const { definition } = counted()
    const execute = vi.fn(async () => undefined)
    const first = createChatSession(definition, { sessionId: 'c1', storage })
    const pending = await first.createConfirmation({ executor: { execute } }).propose(action)
    expect(storage.saved.get('c1')?.confirmations).toMatchObject([{ token: pending.token, status: 'pending' }])

    const resumed = await resumeChatSession(definition, { sessionId: 'c1', storage })
    const approved = await resumed.createConfirmation({ executor: { execute } }).approve(pending.token, 'c1')
    expect(approved.status).toBe('approved')
    const later = await resumeChatSession(definition, { sessionId: 'c1', storage })
    expect((await later.createConfirmation({ executor: { execute } }).approve(pending.token, 'c1')).status).toBe('approved')
    expect(execute).toHaveBeenCalledTimes(1)
    expect(storage.saved.get('c1')?.confirmations[0]?.status).toBe('approved')
  })

  it('a resumed session finds a stored confirmation by its tool call at once, synchronously (an approval card after a reload)', async () => {
    const storage = memoryStorage()
    const { definition } = counted()
    const execute = vi.fn(async () => undefined)
    const first = createChatSession(definition, { sessionId: 'c3', storage })
    const pending = await first.createConfirmation({ executor: { execute } }).propose(action, { toolCallId: 'call-1' })
    const resumed = await resumeChatSession(definition, { sessionId: 'c3', storage })
    const confirmations = resumed.createConfirmation({ executor: { execute } })
    expect(confirmations.getByToolCall('call-1')).toMatchObject({ token: pending.token, status: 'pending' })
    expect(confirmations.getByToolCall('call-2')).toBeUndefined()
    await confirmations.approve(pending.token, 'c3')
    // the coordinator's own newer view wins over what was stored when it was created
    expect(confirmations.getByToolCall('call-1')?.status).toBe('approved')
    expect(execute).toHaveBeenCalledTimes(1)
    // a session without storage knows nothing it has not seen
    expect(createChatSession(definition, { sessionId: 'c3' }).createConfirmation({ executor: { execute } }).getByToolCall('call-1')).toBeUndefined()
  })

  it('two resumed instances approving one token at once execute it once', async () => {
    const storage = memoryStorage()
    const { definition } = counted()
    const seed = createChatSession(definition, { sessionId: 'c2', storage })
    const pending = await seed.createConfirmation({ executor: { execute: async () => undefined } }).propose(action)
    const [a, b] = await Promise.all([resumeChatSession(definition, { sessionId: 'c2', storage }), resumeChatSession(definition, { sessionId: 'c2', storage })])
    const executeA = vi.fn(async () => undefined)
    const executeB = vi.fn(async () => undefined)
    const results = await Promise.allSettled([
      a.createConfirmation({ executor: { execute: executeA } }).approve(pending.token, 'c2'),
      b.createConfirmation({ executor: { execute: executeB } }).approve(pending.token, 'c2'),
    ])
    expect(executeA.mock.calls.length + executeB.mock.calls.length).toBe(1)
    // the loser saved nothing and executed nothing: its approve rejects with SessionConflictError
    const [won, lost] = results[0].status === 'fulfilled' ? results : [results[1], results[0]]
    expect(won).toMatchObject({ status: 'fulfilled', value: { status: 'approved' } })
    expect(lost.status === 'rejected' && isSessionConflictError(lost.reason)).toBe(true)
    // the losing session never overwrites the winner: its saves keep conflicting until it is resumed
    const loser = results[0].status === 'fulfilled' ? b : a
    const overwrite = await loser.persist().then(() => undefined, (error: unknown) => error)
    expect(isSessionConflictError(overwrite)).toBe(true)
    await (await resumeChatSession(definition, { sessionId: 'c2', storage })).persist()
    expect(storage.saved.get('c2')?.confirmations[0]?.status).toBe('approved')
  })
})
