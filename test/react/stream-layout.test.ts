import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { observePending, recordAnswer } from '../../src/view/dialog-log.js'
import { layoutStream, pendingDialogOf } from '../../src/view/stream-layout.js'
import type { StreamItem } from '../../src/view/stream-layout.js'
import { message, questionDialog } from './dialogs.js'

const keys = (items: StreamItem[]): string[] => items.map((item) => item.key)

describe('layoutStream', () => {
  it('places a pending dialog at the message that hosts its tool call', () => {
    const messages = [
      message('u1', 'user', 'ask me'),
      message('a1', 'assistant', 'One question.', { toolCalls: [{ id: 't1', name: 'AskUserQuestion', args: {}, status: 'complete' }] }),
      message('u2', 'user', 'later'),
    ]
    const log = observePending([], questionDialog('t1'), 'u2')
    expect(keys(layoutStream(messages, log))).toEqual(['u1', 'a1', 'dialog:t1', 'u2'])
  })

  it('appends a pending dialog without a host message at the end', () => {
    const messages = [message('u1', 'user', 'hi'), message('a1', 'assistant', 'hello')]
    const log = observePending([], questionDialog('t1'), 'u1')
    const items = layoutStream(messages, log)
    expect(keys(items)).toEqual(['u1', 'a1', 'dialog:t1'])
    expect(items[2]).toMatchObject({ kind: 'dialog', pending: true })
  })

  it('keeps an answered, unhosted dialog after the message it arrived behind, and drops it with that message', () => {
    const answered = recordAnswer(observePending([], questionDialog('t1'), 'a1'), 't1', { kind: 'question', answers: [] })
    const messages = [message('u1', 'user', 'hi'), message('a1', 'assistant', 'hello'), message('u2', 'user', 'more')]
    expect(keys(layoutStream(messages, answered))).toEqual(['u1', 'a1', 'dialog:t1', 'u2'])
    expect(keys(layoutStream(messages.slice(0, 1), answered))).toEqual(['u1'])
  })

  it('prefers the outcome a history message records over a pending log entry, and renders it once', () => {
    const recorded = { ...questionDialog('t1'), outcome: { dismissed: false, approved: false, results: [{ question: 'Which plan are you on?', chosen: ['Pro'] }] } }
    const messages = [message('a1', 'assistant', '', { metadata: { chatrail: { dialog: recorded } } })]
    const log = observePending([], questionDialog('t1'), 'a1')
    const items = layoutStream(messages, log)
    expect(keys(items)).toEqual(['a1', 'dialog:t1'])
    expect(items[1]).toMatchObject({ pending: false, dialog: { outcome: { results: [{ chosen: ['Pro'] }] } } })
    expect(pendingDialogOf(messages, log)).toBeUndefined()
  })

  it('treats a dialog the transcript shows pending (no agent pendingDialog) as the pending one', () => {
    const messages = [message('a1', 'assistant', '', { metadata: { chatrail: { dialog: questionDialog('t9') } } })]
    expect(pendingDialogOf(messages, [])?.toolId).toBe('t9')
    expect(layoutStream(messages, [])[1]).toMatchObject({ kind: 'dialog', pending: true })
  })

  it('property: every message appears once in order, and no tool id renders twice', () => {
    const arbitrary = fc.record({
      count: fc.integer({ min: 0, max: 8 }),
      dialogs: fc.array(fc.record({
        tool: fc.integer({ min: 0, max: 4 }),
        host: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
        anchor: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
        answered: fc.boolean(),
        recorded: fc.boolean(),
      }), { maxLength: 6 }),
    })
    fc.assert(fc.property(arbitrary, ({ count, dialogs }) => {
      const messages = Array.from({ length: count }, (_, i) => message(`m${i}`, i % 2 === 0 ? 'user' : 'assistant', `${i}`))
      let log = observePending([], undefined, null)
      for (const spec of dialogs) {
        const toolId = `t${spec.tool}`
        const host = spec.host === undefined ? undefined : messages[spec.host]
        if (host !== undefined) {
          if (spec.recorded) host.metadata = { chatrail: { dialog: questionDialog(toolId) } }
          else host.toolCalls = [...(host.toolCalls ?? []), { id: toolId, name: 'AskUserQuestion', args: {}, status: 'complete' }]
        }
        log = observePending(log, questionDialog(toolId), spec.anchor === undefined ? null : `m${spec.anchor}`)
        if (spec.answered) log = recordAnswer(log, toolId, { kind: 'question', answers: [] })
      }
      const items = layoutStream(messages, log)
      const messageKeys = items.filter((item) => item.kind === 'message').map((item) => item.key)
      expect(messageKeys).toEqual(messages.map((m) => m.id))
      const dialogKeys = items.filter((item) => item.kind === 'dialog').map((item) => item.key)
      expect(new Set(dialogKeys).size).toBe(dialogKeys.length)
      // A pending dialog is always shown somewhere.
      const pending = pendingDialogOf(messages, log)
      if (pending !== undefined) expect(dialogKeys).toContain(`dialog:${pending.toolId}`)
    }))
  })
})
