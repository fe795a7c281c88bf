import { describe, expect, it } from 'vitest'
import { dialogFromToolUse, PLAN_OPTIONS } from '../../../src/agents/claude-code/dialog-mapping.js'
import { outcomeFor } from '../../../src/agents/claude-code/dialog-outcome.js'
import type { DialogResolution } from '../../../src/agents/claude-code/dialog-outcome.js'
import { createTranscriptFold } from '../../../src/agents/claude-code/transcript-fold.js'
import { askInput, transcript } from './transcript-builder.js'

/** Dialogs and their outcomes, exactly per seed 001 (run-state-readers §7, §8 items 63, 69–79). */

const color = { question: 'Which color do you prefer?', header: 'Color', multiSelect: false, options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }
const fruits = { question: 'Which fruits do you like?', header: 'Fruits', multiSelect: true, options: [{ label: 'Apple', description: '' }, { label: 'Banana', description: '' }, { label: 'Cherry', description: '' }, { label: 'Salt, pepper', description: '' }] }

const answered = (answers: Record<string, string>, extra: Record<string, unknown> = {}): DialogResolution => ({ toolUseResult: { questions: [], answers, annotations: {}, ...extra }, content: 'answered', isError: false })
const denied = (text = 'User rejected tool use', denialKind?: string): DialogResolution => ({ toolUseResult: text, content: text, isError: true, ...(denialKind ? { denialKind } : {}) })

describe('dialog mapping', () => {
  it('one question: flat prompt, options with the implicit Other row, answerable', () => {
    expect(dialogFromToolUse('toolu_ABC', 'AskUserQuestion', askInput)).toEqual({
      toolId: 'toolu_ABC',
      kind: 'question',
      prompt: 'Which color do you prefer?',
      options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }, { label: 'Other', isOther: true }],
      multiSelect: false,
      answerable: true,
    })
  })

  it('63: several questions list all of them (the second multi-select, 4 rows ending in Other); the flat fields describe the first', () => {
    const d = dialogFromToolUse('q', 'AskUserQuestion', { questions: [color, { ...fruits, options: fruits.options.slice(0, 3) }] })
    expect(d.prompt).toBe('Which color do you prefer?')
    expect(d.questions).toHaveLength(2)
    expect(d.questions?.[1]).toMatchObject({ header: 'Fruits', multiSelect: true })
    expect(d.questions?.[1]?.options.map((o) => o.label)).toEqual(['Apple', 'Banana', 'Cherry', 'Other'])
    expect(d.questions?.[1]?.options.at(-1)?.isOther).toBe(true)
  })

  it('63b: a plan is kind plan with the picker rows, the last carrying feedback', () => {
    const d = dialogFromToolUse('p', 'ExitPlanMode', { plan: '# P', planFilePath: '/x.md' })
    expect(d).toMatchObject({ kind: 'plan', prompt: '# P', answerable: true, multiSelect: false })
    expect(d.options).toEqual([...PLAN_OPTIONS])
    expect(d.options.at(-1)?.isOther).toBe(true)
  })

  it('a plan without text points at the plan file; bad question input is unanswerable', () => {
    expect(dialogFromToolUse('p', 'ExitPlanMode', { planFilePath: '/x.md' }).prompt).toBe('Plan ready for review: /x.md')
    expect(dialogFromToolUse('p', 'ExitPlanMode', {}).prompt).toBe('Plan ready for review')
    expect(dialogFromToolUse('q', 'AskUserQuestion', { questions: 'nope' })).toMatchObject({ prompt: 'Interactive question', answerable: false, options: [] })
    expect(dialogFromToolUse('q', 'AskUserQuestion', { questions: [{ question: 'Free?', options: [] }] })).toMatchObject({ prompt: 'Free?', answerable: false })
  })

  it('79: a plan longer than 6000 bytes and a long question pass through untruncated', () => {
    const plan = 'x'.repeat(20_000)
    expect(dialogFromToolUse('p', 'ExitPlanMode', { plan }).prompt).toHaveLength(20_000)
    const question = `${'why '.repeat(3000)}?`
    expect(dialogFromToolUse('q', 'AskUserQuestion', { questions: [{ ...color, question }] }).prompt).toBe(question)
  })
})

describe('dialog outcomes', () => {
  const single = dialogFromToolUse('q', 'AskUserQuestion', { questions: [color] })
  const multi = dialogFromToolUse('q', 'AskUserQuestion', { questions: [fruits] })
  const both = dialogFromToolUse('q', 'AskUserQuestion', { questions: [color, fruits] })
  const plan = dialogFromToolUse('p', 'ExitPlanMode', { plan: '# P' })

  it('69: single-select "Red" → chosen [Red]', () => {
    expect(outcomeFor(single, answered({ [color.question]: 'Red' }))).toEqual({ dismissed: false, approved: false, results: [{ question: color.question, chosen: ['Red'] }] })
  })

  it('70: single-select free text is otherText verbatim, never split', () => {
    expect(outcomeFor(single, answered({ [color.question]: 'Chartreuse, please' })).results).toEqual([{ question: color.question, chosen: [], otherText: 'Chartreuse, please' }])
  })

  it('typing "Other" is free text, never the Other row', () => {
    expect(outcomeFor(single, answered({ [color.question]: 'Other' })).results?.[0]).toEqual({ question: color.question, chosen: [], otherText: 'Other' })
  })

  it('71: answers recorded fruits-first come back in dialog order', () => {
    const outcome = outcomeFor(both, answered({ [fruits.question]: 'Apple, Cherry', [color.question]: 'Red' }))
    expect(outcome.results).toEqual([
      { question: color.question, chosen: ['Red'] },
      { question: fruits.question, chosen: ['Apple', 'Cherry'] },
    ])
  })

  it('72: multi-select keeps toggle order ("Cherry, Apple")', () => {
    expect(outcomeFor(multi, answered({ [fruits.question]: 'Cherry, Apple' })).results?.[0]?.chosen).toEqual(['Cherry', 'Apple'])
  })

  it('73: multi-select leftovers re-join as free text', () => {
    expect(outcomeFor(multi, answered({ [fruits.question]: 'Cherry, hold the mayo, extra sauce' })).results?.[0]).toEqual({ question: fruits.question, chosen: ['Cherry'], otherText: 'hold the mayo, extra sauce' })
  })

  it('a multi-select label containing ", " chosen alone is matched whole', () => {
    expect(outcomeFor(multi, answered({ [fruits.question]: 'Salt, pepper' })).results?.[0]?.chosen).toEqual(['Salt, pepper'])
  })

  it('an unanswered question in a multi-question dialog has no choice', () => {
    expect(outcomeFor(both, answered({ [color.question]: 'Blue' })).results?.[1]).toEqual({ question: fruits.question, chosen: [] })
  })

  it('74: a denial (string result, or toolDenialKind user-rejected) is dismissed', () => {
    expect(outcomeFor(single, denied())).toEqual({ dismissed: true, approved: false })
    expect(outcomeFor(single, { toolUseResult: { answers: { [color.question]: 'Red' } }, content: '', isError: true, denialKind: 'user-rejected' })).toEqual({ dismissed: true, approved: false })
  })

  it('75: the unattended timeout (answers {} + afkTimeoutMs) is dismissed; so is a missing result', () => {
    expect(outcomeFor(single, answered({}, { afkTimeoutMs: 60_000 }))).toEqual({ dismissed: true, approved: false })
    expect(outcomeFor(single, { toolUseResult: undefined, content: '', isError: false })).toEqual({ dismissed: true, approved: false })
  })

  it('76: a plan approved with an object result', () => {
    expect(outcomeFor(plan, { toolUseResult: { plan: '# P', isAgent: false, filePath: '/p.md' }, content: 'User has approved your plan.', isError: false })).toEqual({ dismissed: false, approved: true })
  })

  it('77: a plan rejected with feedback carries the text after the last "the user said:\\n"', () => {
    const text = "Error: The user doesn't want to proceed … To tell you how to proceed, the user said:\nAdd tests first"
    expect(outcomeFor(plan, denied(text))).toEqual({ dismissed: false, approved: false, feedback: 'Add tests first' })
    const twice = `${text.replace('Add tests first', 'a quote: the user said:\nnot this')}\n… the user said:\nreal feedback`
    expect(outcomeFor(plan, denied(twice)).feedback).toBe('real feedback')
  })

  it('a plan declined without feedback is rejected, not dismissed; an empty result is dismissed', () => {
    expect(outcomeFor(plan, denied())).toEqual({ dismissed: false, approved: false })
    expect(outcomeFor(plan, { toolUseResult: {}, content: '', isError: false })).toEqual({ dismissed: true, approved: false })
  })

  it('78: a resolved dialog yields exactly one message: a dialog with no tool and an outcome', () => {
    const t = transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput).toolResult('q1', 'answered', { result: { questions: askInput.questions, answers: { [color.question]: 'Blue' } } })
    const f = createTranscriptFold()
    for (const line of t.lines) f.push(line)
    const messages = f.snapshot().messages
    expect(messages).toHaveLength(2)
    expect(messages[1]).toMatchObject({ kind: 'dialog', dialog: { outcome: { dismissed: false, results: [{ chosen: ['Blue'] }] } } })
    expect(messages[1]?.tool).toBeUndefined()
  })
})
