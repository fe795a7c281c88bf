import { expect } from 'vitest'
import type { Message } from '../../contract/message.js'
import { isChatrailConfigError } from '../../conversation/config-error.js'
import { MAX_DECISION_LOGS, type ConversationStore, type DefinitionRef, type StoredConversation } from '../../store/conversation-store.js'
import { decisionViewOf } from '../../store/decision-view.js'

/**
 * The store contract's case for `loadDecisions` (S20; see store-contract.ts). It is optional: a
 * store without it passes (a reader loads the conversation whole). A store with it returns, in one
 * read per call, what `load` returns for each id with each message reduced by `decisionViewOf`:
 * every field a walk of the decisions reads, kept exactly (metadata with nested nulls, unicode and
 * numbers; a user's text), and none of the answers' texts, parts or tool calls; in the order asked,
 * the absent left out; after an edit, the log as it is now; bad ids a config error.
 */
export interface DecisionCaseEnv {
  readonly store: () => ConversationStore
  readonly check: (invariant: 'S20', title: string, body: () => Promise<void>) => void
  readonly definition: DefinitionRef
  readonly rejection: (promise: Promise<unknown>) => Promise<unknown>
}

const AT = Date.UTC(2030, 0, 1)
const message = (id: string, role: Message['role'], content: string, extra: Partial<Message> = {}): Message => ({ id, role, content, status: 'complete', createdAt: new Date(AT + id.length * 1000), ...extra })

export function describeDecisionCases(env: DecisionCaseEnv): void {
  const { check, definition } = env

  check('S20', 'loadDecisions reads whole logs, several at once, without answers’ texts, parts and tool calls, every other field exact', async () => {
    const store = env.store()
    const loadDecisions = store.loadDecisions
    if (loadDecisions === undefined) return
    const one = async (id: string): Promise<StoredConversation | undefined> => {
      const logs = await loadDecisions.call(store, [id])
      expect(logs.length).toBeLessThanOrEqual(1)
      return logs[0]
    }
    expect(await loadDecisions.call(store, ['absent'])).toEqual([])
    expect(await loadDecisions.call(store, [])).toEqual([])
    const record = { v: 1, messageId: 'u1', turnId: 't1', input: 'fp', kind: 'deterministic', fromState: 'a', toState: 'b', assign: { n: 1.5, none: null, text: 'ü ✓ "q"', list: [1, null, { deep: true }] } }
    const log: Message[] = [
      message('s0', 'system', 'You are terse.'),
      message('u1', 'user', 'hello “world”', { metadata: { chatrail: { event: 'pick' } }, parts: [{ type: 'text', text: 'hello “world”' }] }),
      message('a1', 'assistant', 'a long answer '.repeat(20), {
        metadata: { chatrail: record, timings: { routeMs: 3 }, tools: [{ toolCallId: 'c1', toolName: 'lookup', state: 'output-available' }] },
        parts: [{ type: 'text', text: 'a long answer' }],
        toolCalls: [{ id: 'c1', name: 'lookup', args: { q: 'secret' }, result: 'a result', status: 'complete' }],
      }),
      message('tool1', 'tool', 'the tool said', { toolCallId: 'c1' }),
      message('u22', 'user', 'second', { status: 'complete' }),
      message('a22', 'assistant', '', { status: 'error', metadata: { error: { code: 'ADAPTER' } } }),
    ]
    await store.append('d1', { expectedVersion: 0, messages: log, definition, owner: 'ann' })
    const whole = await store.load('d1')
    const decisions = await one('d1')
    expect(decisions).toEqual({ ...whole, messages: log.map(decisionViewOf) })
    expect(decisions?.range).toBeUndefined()
    const read = JSON.stringify(decisions?.messages)
    for (const left of ['a long answer', 'the tool said', 'secret', 'a result', 'You are terse']) expect(read).not.toContain(left)
    expect(decisions?.messages[1]).toMatchObject({ content: 'hello “world”', metadata: { chatrail: { event: 'pick' } } })
    expect(decisions?.messages[1]).not.toHaveProperty('parts')
    expect(decisions?.messages[2]).not.toHaveProperty('toolCalls')
    expect(decisions?.messages[3]).toMatchObject({ content: '', toolCallId: 'c1' })
    expect(decisions?.messages.every((m) => m.createdAt instanceof Date)).toBe(true)
    // several in one read, in the order asked, the absent left out, a repeat read once
    await store.append('d2', { expectedVersion: 0, messages: [message('u4444', 'user', 'other')], definition })
    const both = await loadDecisions.call(store, ['d2', 'absent', 'd1', 'd2'])
    expect(both.map((log) => [log.conversationId, log.messages.length])).toEqual([['d2', 1], ['d1', log.length]])
    expect(both[1]).toEqual(decisions)
    // an edit (truncate, append): the log as it is now
    await store.append('d1', { expectedVersion: 1, truncateAfter: 'tool1', messages: [message('u333', 'user', 'edited')], definition })
    expect((await one('d1'))?.messages.map((m) => m.id)).toEqual(['s0', 'u1', 'a1', 'tool1', 'u333'])
    // a conversation with every message truncated: the header, no messages
    await store.append('d1', { expectedVersion: 2, truncateAfter: null, messages: [], definition })
    expect(await one('d1')).toMatchObject({ conversationId: 'd1', messages: [], version: 3, owner: 'ann' })
    // bad input: a config error naming what is wrong, before anything is read
    for (const bad of [['not an id!'], Array.from({ length: MAX_DECISION_LOGS + 1 }, (_, i) => `d${i}`), 'd1' as unknown as string[]]) {
      const error = await env.rejection(loadDecisions.call(store, bad))
      expect(isChatrailConfigError(error)).toBe(true)
    }
  })
}
