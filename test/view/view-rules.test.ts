import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { commandRoute, createChatSession, defineChat, eventRoute } from '../../src/index.js'
import type { ApprovalRecord, ApprovalSource } from '../../src/view/index.js'
import {
  approvalOutcomeOf, approvalStateOf, canEditMessage, canReplayLastTurn, eventBarOf, labelledSuggestionsOf, messageAttributesOf,
  createWaitingApprovals, pendingApprovalOf, waitingApprovalsOf, watchApproval,
} from '../../src/view/index.js'
import { wiredListeners } from '../../src/view/listeners.js'
import { countingAdapter } from '../react/support-chat.js'

/** The view's pure rules that each binding used to hold a copy of: one answer for every binding. */

const at = new Date(0)
const message = (id: string, role: Message['role'], extra: Partial<Message> = {}): Message => ({ id, role, status: 'complete', createdAt: at, content: id, ...extra })
const record = (status: ApprovalRecord['status'], extra: Partial<ApprovalRecord> = {}): ApprovalRecord =>
  ({ token: 't1', status, action: { name: 'refund', input: { order: 'A1' } }, expiresAt: 1_000, ...extra }) as ApprovalRecord

describe('a message element\'s attributes and offers', () => {
  it('the first part of a reply split around a dialog is complete and never stopped; the fallback part is marked', () => {
    const streaming = message('a1', 'assistant', { status: 'streaming' })
    expect(messageAttributesOf(streaming, 'before', true)).toMatchObject({ 'data-chatrail-status': 'complete', 'data-chatrail-stopped': undefined, 'data-chatrail-fallback': undefined })
    expect(messageAttributesOf(streaming, 'after', true)).toMatchObject({ 'data-chatrail-status': 'streaming', 'data-chatrail-stopped': '' })
    expect(messageAttributesOf(message('a2', 'assistant'), 'fallback', false)).toMatchObject({ 'data-chatrail-role': 'assistant', 'data-chatrail-fallback': '' })
    const event = message('u1', 'user', { metadata: { chatrail: { event: 'RESOLVE' } } })
    expect(messageAttributesOf(event, undefined, false)['data-chatrail-event']).toBe('RESOLVE')
  })

  it('Edit is offered on the user\'s own words only, while nothing streams; Regenerate on a reply right after a user message', () => {
    expect(canEditMessage(message('u1', 'user'), false)).toBe(true)
    expect(canEditMessage(message('u1', 'user'), true)).toBe(false)
    expect(canEditMessage(message('u1', 'user', { metadata: { chatrail: { event: 'RESOLVE' } } }), false)).toBe(false)
    expect(canEditMessage(message('a1', 'assistant'), false)).toBe(false)
    expect(canReplayLastTurn([message('u', 'user'), message('a', 'assistant')], false)).toBe(true)
    expect(canReplayLastTurn([message('s', 'system'), message('a', 'assistant')], false)).toBe(false)
  })
})

describe('an approval card', () => {
  it('a pending record past its expiry is expired; each decided state says what happened', () => {
    expect(approvalStateOf(record('pending'), 999)).toBe('pending')
    expect(approvalStateOf(record('pending'), 1_000)).toBe('expired')
    expect(approvalOutcomeOf(record('pending'), 'pending')).toBeUndefined()
    expect(approvalOutcomeOf(record('rejected', { reason: 'not now' }), 'rejected')).toBe('Rejected: not now')
    expect(approvalOutcomeOf(record('approved', { outcome: { status: 'error' } } as Partial<ApprovalRecord>), 'approved')).toBe('Approved (the action failed)')
    expect(approvalOutcomeOf(record('expired'), 'expired')).toBe('Expired')
    expect(approvalOutcomeOf(record('approved'), 'approved', { approved: 'Approuvé', rejected: 'Refusé', expiredApproval: 'Expiré', deciding: '…', actionFailed: ' (échec)' })).toBe('Approuvé')
  })

  it('watchApproval reads the record, follows the source\'s changes to it, and stops', async () => {
    const listeners = new Set<(changed: ApprovalRecord) => void>()
    const source: ApprovalSource = {
      read: async (token) => (token === 't1' ? record('pending') : undefined),
      approve: async () => record('approved'),
      reject: async () => record('rejected'),
      subscribe: (listener) => { listeners.add(listener); return () => listeners.delete(listener) },
    }
    const seen: string[] = []
    const stop = watchApproval(source, 't1', (bound) => seen.push(bound.state === 'ready' ? bound.record.status : bound.state))
    await new Promise((resolve) => setTimeout(resolve, 0))
    for (const listener of listeners) listener(record('approved', { token: 'other' }))
    for (const listener of listeners) listener(record('approved'))
    stop()
    for (const listener of listeners) listener(record('rejected'))
    expect(seen).toEqual(['pending', 'approved'])
    const missing: string[] = []
    watchApproval(source, 'nope', (bound) => missing.push(bound.state))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(missing).toEqual(['missing'])
  })

  it('pendingApprovalOf: the approval request of the last, complete answer', () => {
    const part = { type: 'component', componentKey: 'approval-request', instanceId: 'ap', props: { token: 't9', title: 'Refund?' }, fallback: { kind: 'approval-request', summary: 'Refund?' }, provenance: 'route' }
    const answer = message('a1', 'assistant', { parts: [part] as Message['parts'] })
    expect(pendingApprovalOf([message('u1', 'user'), answer])).toEqual({ key: 'a1:ap', token: 't9', title: 'Refund?' })
    expect(pendingApprovalOf([answer, message('u2', 'user')])).toBeUndefined()
    expect(pendingApprovalOf([{ ...answer, status: 'streaming' }])).toBeUndefined()
  })
})

describe('the event bar', () => {
  const definition = defineChat({
    id: 'bar',
    chat: { adapter: countingAdapter() },
    conversation: {
      initial: 'open',
      states: { open: { on: { CLOSE: 'closed' } }, closed: { final: true } },
      routes: [
        commandRoute({ id: 'help', command: '/help', response: 'Help.' }),
        eventRoute({ id: 'close', uiEvent: 'CLOSE', event: 'CLOSE', response: 'Closed.' }),
        eventRoute({ id: 'restart', uiEvent: 'RESTART', restart: true, states: ['closed'], response: 'Again.' }),
      ],
    },
  })

  it('buttons in a state, the end with Start over in a final one, the chips again right after a restart; labels the app\'s first', async () => {
    const session = createChatSession(definition, { lint: false })
    const open = eventBarOf({ definition, snapshot: session.getSnapshot(), traces: [], disabled: false, eventLabels: { CLOSE: 'Done' } })
    expect(open).toMatchObject({ mode: 'buttons', restart: undefined, buttons: [{ uiEvent: 'CLOSE', label: 'Done' }] })
    expect(labelledSuggestionsOf({ definition, snapshot: session.getSnapshot() }).map((chip) => chip.label)).toEqual(['/help', 'Close'])
    const closed = { ...session.getSnapshot(), state: 'closed', events: [], final: true, restart: 'RESTART' }
    const end = eventBarOf({ definition, snapshot: closed, traces: [], disabled: true })
    expect(end).toMatchObject({ mode: 'end', disabled: true, buttons: [], restart: { uiEvent: 'RESTART', label: 'Start over' } })
    const trace = { reason: 'restart', toState: 'open' } as never
    expect(eventBarOf({ definition, snapshot: session.getSnapshot(), traces: [trace], disabled: false }).mode).toBe('restarted')
  })
})

describe('wiredListeners', () => {
  it('wires with the first subscriber and unwires with the last; clear drops them all', () => {
    let wired = 0
    let unwired = 0
    const listeners = wiredListeners(() => { wired += 1; return () => { unwired += 1 } })
    let calls = 0
    const offA = listeners.subscribe(() => { calls += 1 })
    const offB = listeners.subscribe(() => { calls += 1 })
    listeners.notify()
    expect([wired, calls]).toEqual([1, 2])
    offA()
    expect(unwired).toBe(0)
    offB()
    expect(unwired).toBe(1)
    listeners.subscribe(() => { calls += 1 })
    listeners.clear()
    listeners.notify()
    expect([wired, unwired, calls]).toEqual([2, 2, 2])
  })
})

describe('the waiting approvals', () => {
  it('waitingApprovalsOf: pending and being-decided records no message shows; final ones only when decided here', () => {
    const part = { type: 'component', componentKey: 'approval-request', instanceId: 'ap', props: { token: 'shown' }, fallback: { kind: 'approval-request', summary: 'x' }, provenance: 'route' }
    const messages = [message('a1', 'assistant', { parts: [part] as Message['parts'] })]
    const records = [record('pending', { token: 'p' }), record('executing', { token: 'e' }), record('approved', { token: 'elsewhere' }), record('pending', { token: 'shown' }), record('rejected', { token: 'here' })]
    const decided = new Map([['here', record('rejected', { token: 'here', reason: 'no' })]])
    expect(waitingApprovalsOf(records, decided, messages).map((shown) => [shown.token, shown.status])).toEqual([['p', 'pending'], ['e', 'executing'], ['here', 'rejected']])
  })

  it('a decision made here keeps its card through the source\'s changes on the way, then shows the answer; a failed one gives it back', async () => {
    const listeners = new Set<(changed: ApprovalRecord) => void>()
    const emit = (changed: ApprovalRecord): void => { for (const listener of listeners) listener(changed) }
    let fail = false
    const source: ApprovalSource = {
      read: async () => undefined,
      list: async () => [record('pending')],
      approve: async () => {
        emit(record('approving'))
        emit(record('executing'))
        if (fail) throw new Error('the store refused')
        emit(record('approved'))
        return record('approved')
      },
      reject: async () => record('rejected'),
      subscribe: (listener) => { listeners.add(listener); return () => listeners.delete(listener) },
    }
    const approvals = createWaitingApprovals(source)
    const seen: string[] = []
    const off = approvals.subscribe(() => seen.push(approvals.shownWith([]).map((shown) => shown.status).join(',') || 'none'))
    await approvals.refresh()
    await approvals.approve('t1')
    expect(seen).not.toContain('none')
    expect(approvals.shownWith([]).map((shown) => shown.status)).toEqual(['approved'])
    fail = true
    const again = createWaitingApprovals(source)
    const offAgain = again.subscribe(() => undefined)
    await again.refresh()
    await expect(again.approve('t1')).rejects.toThrow('the store refused')
    // the source's last word (executing) is what the list shows now: another decision is under way there
    expect(again.shownWith([]).map((shown) => shown.status)).toEqual(['executing'])
    off()
    offAgain()
  })
})
