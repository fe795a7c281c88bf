import { describe, expect, it } from 'vitest'
import { markAnswering, observePending, outcomeOfAnswer, recordAnswer, recordAnswerFailed } from '../../src/view/dialog-log.js'
import type { DialogLog } from '../../src/view/dialog-log.js'
import { questionDialog } from './dialogs.js'

describe('dialog log', () => {
  it('appends a new pending dialog once, anchored after the last message', () => {
    const dialog = questionDialog('t1')
    const once = observePending([], dialog, 'm2')
    expect(once).toEqual([{ dialog, anchor: 'm2', answering: false }])
    expect(observePending(once, dialog, 'm3')).toBe(once)
  })

  it('records a vanished, unanswered dialog as dismissed, never as still pending', () => {
    const log = observePending([], questionDialog('t1'), null)
    const after = observePending(log, undefined, null)
    expect(after[0]?.dialog.outcome).toEqual({ dismissed: true, approved: false })
  })

  it('does not dismiss a dialog whose answer is in flight, and records the answer on success', () => {
    let log: DialogLog = observePending([], questionDialog('t1'), null)
    log = markAnswering(log, 't1', true)
    log = observePending(log, undefined, null)
    expect(log[0]?.dialog.outcome).toBeUndefined()
    const answers = [{ question: 'Which plan are you on?', chosen: ['Pro'] }]
    log = recordAnswer(log, 't1', { kind: 'question', answers })
    expect(log[0]).toMatchObject({ answering: false, dialog: { outcome: { dismissed: false, results: answers } } })
  })

  it('after a failed answer the dialog is pending again while the agent still shows it', () => {
    const dialog = questionDialog('t1')
    const log = markAnswering(observePending([], dialog, null), 't1', true)
    expect(recordAnswerFailed(log, 't1', dialog)[0]).toMatchObject({ answering: false, dialog: { toolId: 't1' } })
    expect(recordAnswerFailed(log, 't1', dialog)[0]?.dialog.outcome).toBeUndefined()
    expect(recordAnswerFailed(log, 't1', undefined)[0]?.dialog.outcome?.dismissed).toBe(true)
  })

  it('maps plan answers to approved / rejected with feedback', () => {
    expect(outcomeOfAnswer({ kind: 'plan', approved: true })).toEqual({ dismissed: false, approved: true })
    expect(outcomeOfAnswer({ kind: 'plan', approved: false, feedback: 'smaller steps' }))
      .toEqual({ dismissed: false, approved: false, feedback: 'smaller steps' })
    expect(outcomeOfAnswer({ kind: 'plan', approved: false, feedback: '' })).toEqual({ dismissed: false, approved: false })
  })

  it('replaces a refreshed pending dialog object of the same tool id while unanswered', () => {
    const first = questionDialog('t1')
    const refreshed = questionDialog('t1', { prompt: 'Which plan, exactly?' })
    const log = observePending(observePending([], first, null), refreshed, null)
    expect(log).toHaveLength(1)
    expect(log[0]?.dialog.prompt).toBe('Which plan, exactly?')
  })
})
