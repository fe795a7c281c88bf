import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ComponentPart } from '../../src/contract/component-part.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import { createChatBinding, createChatView, entryLabels, loadComponentRules } from '../../src/view/index.js'
import type { ApprovalRecord, ApprovalSource, ChatView } from '../../src/view/index.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { countingAdapter, supportChat } from '../react/support-chat.js'
import { choiceChat } from './component-choice-chat.js'
import { eventually } from '../server/support/harness.js'

/**
 * The view store over a local binding: snapshot identity, every derived field, every action. The
 * remote binding's view: chat-view-remote.test.ts; the at-most-once property: chat-view-interaction.test.ts.
 */

// the component rules in, as a page that showed a component (component-rules.test.ts: before they are)
beforeAll(async () => { await loadComponentRules() })

const views: ChatView[] = []
afterEach(() => {
  for (const view of views.splice(0)) view.dispose()
})

function viewOf(adapter: AdapterFactory = countingAdapter('agent reply'), options: Parameters<typeof createChatView>[1] = {}): ChatView {
  const view = createChatView(createChatBinding(supportChat(adapter), { lint: false }), options)
  views.push(view)
  view.subscribe(() => undefined)
  return view
}

function record(token: string, order: string): ApprovalRecord {
  return { token, status: 'pending', action: { name: 'refund', input: { order } }, expiresAt: Number.MAX_SAFE_INTEGER } as ApprovalRecord
}

describe('createChatView: the snapshot', () => {
  it('is the same object until something in it changed, and a new one after each change', async () => {
    const view = viewOf()
    const first = view.getSnapshot()
    expect(view.getSnapshot()).toBe(first)
    let notified = 0
    const off = view.subscribe(() => { notified += 1 })
    await view.send('/start')
    off()
    const after = view.getSnapshot()
    expect(after).not.toBe(first)
    expect(notified).toBeGreaterThan(0)
    expect(view.getSnapshot()).toBe(after)
    // unchanged parts keep their identity too (a memo over them stays valid)
    expect(after.labels).toBe(first.labels)
  })

  it('derives the stream, the lifecycle targets, the badge, the event bar and the chips from the state', async () => {
    const view = viewOf()
    const start = view.getSnapshot()
    expect(start.badge).toEqual({ state: 'welcome', name: 'Welcome', words: 'Ready' })
    expect(start.suggestions.map((chip) => [chip.kind, chip.label])).toEqual([['command', '/start']])
    expect(start.lifecycle).toMatchObject({ userId: undefined, assistantId: undefined, canRetry: false })
    await view.send('/start')
    const snapshot = view.getSnapshot()
    expect(snapshot.items.map((item) => item.kind)).toEqual(['message', 'message'])
    const [user, reply] = snapshot.messages
    expect(snapshot.lifecycle).toMatchObject({ userId: user?.id, assistantId: reply?.id, canRetry: true })
    expect(snapshot.badge).toEqual({ state: 'triage', name: 'Triage', words: 'Ready' })
    expect(snapshot.eventBar).toMatchObject({ mode: 'buttons', disabled: false, restart: undefined })
    expect(snapshot.eventBar.buttons.map((button) => [button.uiEvent, button.label])).toEqual([['ESCALATE', 'Escalate'], ['RESOLVE', 'Resolve']])
    await view.sendEvent('RESOLVE', 'Resolve')
    expect(view.getSnapshot().eventBar.mode).toBe('end')
    expect(view.getSnapshot().badge.words).toBe('Finished')
  })

  it('names states and events with the app\'s labels, and speaks its words', () => {
    const view = viewOf(undefined, { stateLabels: { welcome: 'Hello' }, labels: { ready: 'Prêt' }, eventLabels: { START: 'Commencer' } })
    expect(view.getSnapshot().badge).toEqual({ state: 'welcome', name: 'Hello', words: 'Prêt' })
    expect(view.getSnapshot().labels.ready).toBe('Prêt')
    expect(view.getSnapshot().labels.send).toBe(entryLabels.send)
  })

  it('reports a failed turn in plain words until dismissed; a new failure shows again', async () => {
    const failing: AdapterFactory = { createSource: () => ({ abort: () => undefined, stream: async function* () { yield { type: 'error', error: 'boom' } } as never }) }
    const view = viewOf(failing)
    await view.send('hello')
    const failure = view.getSnapshot().failure
    expect(failure?.message).toBe('The reply failed.')
    expect(view.getSnapshot().badge.words).toBe('Something went wrong')
    view.dismissFailure()
    expect(view.getSnapshot().failure).toBeUndefined()
    await view.retry()
    expect(view.getSnapshot().failure).toBeDefined()
    expect(view.getSnapshot().failure?.key).not.toBe(failure?.key)
  })

  it('marks a stopped reply and keeps the lifecycle targets off while streaming', async () => {
    const view = viewOf(countingAdapter('one two three four five six seven eight', 5))
    const sending = view.send('tell me')
    await new Promise((resolve) => setTimeout(resolve, 12))
    expect(view.getSnapshot().status).toBe('streaming')
    expect(view.getSnapshot().lifecycle.assistantId).toBeUndefined()
    expect(view.getSnapshot().eventBar.disabled).toBe(true)
    view.stop()
    await sending
    const reply = view.getSnapshot().messages.at(-1)
    expect(reply?.role).toBe('assistant')
    expect(view.getSnapshot().stopped.has(reply?.id as string)).toBe(true)
  })
})

describe('createChatView: actions', () => {
  it('regenerate and edit keep the replaced version; switchVersion shows it again', async () => {
    let n = 0
    const numbered: AdapterFactory = { createSource: () => { n += 1; const text = `answer ${n}`; return { abort: () => undefined, stream: async function* () { yield { type: 'text', content: text }; yield { type: 'done' } } as never } } }
    const view = viewOf(numbered)
    await view.send('question')
    await view.regenerate()
    const reply = view.getSnapshot().messages.at(-1)
    expect(reply?.content).toBe('answer 2')
    expect(view.getSnapshot().versions.get(reply?.id as string)).toEqual({ index: 1, count: 2 })
    expect(view.getSnapshot().latestVersions).toMatchObject({ index: 1, count: 2, messageId: reply?.id })
    expect(view.switchVersion(reply?.id as string, 0)).toBe(true)
    expect(view.getSnapshot().messages.at(-1)?.content).toBe('answer 1')
    const user = view.getSnapshot().messages[0]
    await view.edit(user?.id as string, 'another question')
    expect(view.getSnapshot().messages.map((message) => message.content)).toEqual(['another question', 'answer 3'])
    expect(view.getSnapshot().versions.size).toBeGreaterThan(0)
  })

  it('interact sends a component choice once: a second click, in flight or after, sends nothing', async () => {
    const adapter = countingAdapter('agent')
    const view = createChatView(createChatBinding(choiceChat(adapter), { lint: false }))
    views.push(view)
    view.subscribe(() => undefined)
    await view.send('/pick')
    const pending = view.getSnapshot().pendingComponent
    expect(pending).toMatchObject({ event: 'select', prompt: 'Which?', choices: [{ value: 'reship', label: 'Reship' }, { value: 'refund', label: 'Refund' }] })
    const part = pending?.part as ComponentPart
    const messageId = pending?.messageId as string
    const first = view.interact(messageId, part, 'select', 'refund')
    // in flight: answered already, and the picker is gone
    expect(view.getSnapshot().componentAnswers.get(`${messageId}:next`)).toEqual({ event: 'select', value: 'refund' })
    expect(view.getSnapshot().pendingComponent).toBeUndefined()
    expect(await view.interact(messageId, part, 'select', 'reship')).toBe(false)
    expect(await first).toBe(true)
    expect(await view.interact(messageId, part, 'select', 'reship')).toBe(false)
    const users = view.getSnapshot().messages.filter((message) => message.role === 'user')
    expect(users.map((message) => message.content)).toEqual(['/pick', 'Refund'])
    expect(view.getSnapshot().messages.at(-1)?.content).toBe('Refund on its way.')
    expect(view.getSnapshot().componentAnswers.get(`${messageId}:next`)).toEqual({ event: 'select', value: 'refund' })
    expect(adapter.calls()).toBe(0)
    // a new view over the same binding (a remount) reads the answer from history
    const again = createChatView(view.binding)
    expect(await again.interact(messageId, part, 'select', 'reship')).toBe(false)
    expect(again.getSnapshot().componentAnswers.has(`${messageId}:next`)).toBe(true)
  })

  it('answerDialog answers the pending dialog live: the badge waits for it, then the log records the outcome', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    const view = viewOf(agent)
    const sending = view.send('please ask me first')
    await eventually(() => view.getSnapshot().pendingDialog?.toolId === 'toolu_ask_1')
    expect(view.getSnapshot().badge.words).toBe('Waiting for your answer')
    expect(view.getSnapshot().busy).toBe(true)
    expect(view.getSnapshot().items.filter((item) => item.kind === 'dialog').map((item) => item.kind === 'dialog' && item.pending)).toEqual([true])
    const answers = [{ question: 'Which plan are you on?', chosen: ['Pro'] }]
    expect(await view.answerDialog('toolu_ask_1', { kind: 'question', answers })).toEqual({ delivered: 'live' })
    await sending
    await eventually(() => view.getSnapshot().status === 'idle')
    expect(view.getSnapshot().pendingDialog).toBeUndefined()
    expect(view.getSnapshot().dialogLog.map((entry) => entry.dialog.outcome)).toEqual([{ dismissed: false, approved: false, results: answers }])
    await expect(view.answerDialog('toolu_nope', { kind: 'plan', approved: true })).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG' })
  })

  it('lists the confirmations no message shows, and approve / reject decide them through the source', async () => {
    const records = new Map<string, ApprovalRecord>([
      ['t1', record('t1', 'A1')],
      ['t2', record('t2', 'B2')],
      ['t3', { ...record('t3', 'C3'), status: 'approved' }],
    ])
    const watchers = new Set<(changed: ApprovalRecord) => void>()
    const decide = (token: string, change: Partial<ApprovalRecord>): ApprovalRecord => {
      const next = { ...(records.get(token) as ApprovalRecord), ...change }
      records.set(token, next)
      return next
    }
    const source: ApprovalSource = {
      read: async (token) => records.get(token),
      list: async () => [...records.values()],
      approve: async (token) => decide(token, { status: 'approved' }),
      reject: async (token, reason) => decide(token, { status: 'rejected', ...(reason === undefined ? {} : { reason }) }),
      subscribe: (listener) => { watchers.add(listener); return () => watchers.delete(listener) },
    }
    const view = viewOf(undefined, { approvals: source })
    await view.refreshApprovals()
    // decided elsewhere before this read: not waiting, not shown
    expect(view.getSnapshot().approvals.map((shown) => [shown.token, shown.status])).toEqual([['t1', 'pending'], ['t2', 'pending']])
    expect((await view.approve('t1')).status).toBe('approved')
    expect(await view.reject('t2', 'not now')).toMatchObject({ status: 'rejected', reason: 'not now' })
    // decided here: shown with the outcome, after the next read too (what was decided stays in view)
    expect(view.getSnapshot().approvals.map((shown) => [shown.token, shown.status])).toEqual([['t1', 'approved'], ['t2', 'rejected']])
    await view.refreshApprovals()
    expect(view.getSnapshot().approvals.map((shown) => [shown.token, shown.status])).toEqual([['t1', 'approved'], ['t2', 'rejected']])
    // a change the source reports (another tab decided) replaces the record shown
    records.set('t4', record('t4', 'D4'))
    await view.refreshApprovals()
    expect(view.getSnapshot().approvals.map((shown) => shown.token)).toEqual(['t1', 't2', 't4'])
    for (const watcher of watchers) watcher({ ...record('t4', 'D4'), status: 'expired' })
    expect(view.getSnapshot().approvals.map((shown) => shown.token)).toEqual(['t1', 't2'])
    // without a source there is nothing to decide through
    await expect(viewOf().approve('x')).rejects.toMatchObject({ code: 'NO_APPROVAL_SOURCE', hint: expect.stringContaining('coordinatorApprovals') })
  })

  it('dispose stops listening and releases the binding', async () => {
    const view = viewOf()
    let notified = 0
    view.subscribe(() => { notified += 1 })
    view.dispose()
    views.splice(views.indexOf(view), 1)
    view.setInput('typed')
    expect(notified).toBe(0)
  })
})

describe('createChatView: what a message offers', () => {
  it('Regenerate is offered on the last reply only, when idle and nothing failed', async () => {
    const view = viewOf()
    expect(view.getSnapshot().regenerable).toBeUndefined()
    await view.send('/start')
    expect(view.getSnapshot().regenerable).toBe(view.getSnapshot().messages.at(-1)?.id)
    await view.send('my printer is on fire')
    const [, firstReply, , lastReply] = view.getSnapshot().messages
    expect(view.getSnapshot().regenerable).toBe(lastReply?.id)
    expect(view.getSnapshot().regenerable).not.toBe(firstReply?.id)
  })

  it('no Regenerate while a failure is reported: Retry is the one way to ask again', async () => {
    const failing: AdapterFactory = { createSource: () => ({ abort: () => undefined, stream: async function* () { yield { type: 'text', content: 'half' }; yield { type: 'error', error: 'boom' } } as never }) }
    const view = viewOf(failing)
    await view.send('hello')
    expect(view.getSnapshot().failure).toBeDefined()
    expect(view.getSnapshot().regenerable).toBeUndefined()
  })
})
