import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Dialog, DialogQuestion } from '../../src/contract/dialog.js'
import type { Message } from '../../src/contract/message.js'
import { answerOf, answerText, noChoice, questionsOf } from '../../src/view/dialog-answers.js'
import { cellText, formSummary, formValuesOf, progressOf, sizeText } from '../../src/view/component-text.js'
import { finishedReplies } from '../../src/view/reply-announcements.js'

// The pure rules src/view gained for chatrail/svelte (and that chatrail/vue draws by too): a
// question dialog's answers, the standard catalog's words, the replies a live region reads.

const question: DialogQuestion = { question: 'Which plan?', options: [{ label: 'Free' }, { label: 'Pro' }, { label: 'Other', isOther: true }], multiSelect: true }

describe('dialog answers', () => {
  it('a single-question dialog is its prompt and options; several questions are themselves', () => {
    const dialog: Dialog = { toolId: 't', kind: 'question', prompt: 'Which plan?', options: question.options, multiSelect: false, answerable: true }
    expect(questionsOf(dialog)).toEqual([{ question: 'Which plan?', options: question.options, multiSelect: false }])
    expect(questionsOf({ ...dialog, questions: [question, { ...question, question: 'Why?' }] }).map((q) => q.question)).toEqual(['Which plan?', 'Why?'])
    expect(questionsOf({ ...dialog, questions: [] })).toHaveLength(1)
  })

  it('property: an answer names the chosen options, and Other only as its trimmed, non-empty text', () => {
    const labels = fc.constantFrom('Free', 'Pro', 'Team')
    fc.assert(fc.property(fc.uniqueArray(labels), fc.boolean(), fc.string(), (chosen, other, otherText) => {
      const answer = answerOf(question, { chosen, other, otherText })
      expect(answer.chosen).toEqual(chosen)
      expect(answer.otherText).toBe(other && otherText.trim() !== '' ? otherText.trim() : undefined)
      const text = answerText(answer)
      for (const label of chosen) expect(text).toContain(label)
      expect(text === null).toBe(chosen.length === 0 && answer.otherText === undefined)
    }))
  })

  it('no choice is no answer; an unanswered question reads as none', () => {
    expect(answerOf(question, noChoice)).toEqual({ question: 'Which plan?', chosen: [] })
    expect(answerText(undefined)).toBeNull()
    expect(answerText({ question: 'q', chosen: ['Pro'], otherText: 'and more' })).toBe('Pro, and more')
  })
})

describe('the standard catalog\'s words', () => {
  const fields = [
    { name: 'street', label: 'Street', kind: 'text' },
    { name: 'floor', label: 'Floor', kind: 'number' },
    { name: 'gift', label: 'Gift wrap', kind: 'checkbox' },
    { name: 'slot', label: 'Slot', kind: 'select', options: [{ value: 'pm', label: 'Afternoon' }] },
  ]

  it('a form\'s values: numbers as numbers, a checkbox as a boolean, empty fields left out; its message names them', () => {
    const raw: Record<string, string> = { street: '1 Main St', floor: '3', slot: 'pm' }
    const values = formValuesOf(fields, (name) => raw[name] ?? null)
    expect(values).toEqual({ street: '1 Main St', floor: 3, gift: false, slot: 'pm' })
    expect(formSummary('Address', fields, values)).toBe('Address — Street: 1 Main St, Floor: 3, Gift wrap: no, Slot: Afternoon')
    expect(formValuesOf(fields, (name) => (name === 'gift' ? 'on' : name === 'street' ? '' : null))).toEqual({ gift: true })
    expect(formSummary('Empty', [{ name: 'a', label: 'A', kind: 'text' }], {})).toBe('Empty — sent')
  })

  it('cells, sizes and progress', () => {
    expect([true, false, null, undefined, 4, 'x'].map(cellText)).toEqual(['yes', 'no', '', '', '4', 'x'])
    expect([0, 1023, 1024, 1536, 1024 * 1024 * 3].map(sizeText)).toEqual(['0 B', '1023 B', '1.0 kB', '1.5 kB', '3.0 MB'])
    expect(progressOf(0.4, undefined)).toEqual({ percent: 40, text: '40%' })
    expect(progressOf(undefined, 'running')).toEqual({ percent: undefined, text: 'in progress' })
    expect(progressOf(0.2, 'done')).toEqual({ percent: 100, text: 'done' })
    expect(progressOf(0.2, 'failed')).toEqual({ percent: 20, text: 'failed' })
  })
})

describe('finishedReplies', () => {
  const message = (id: string, role: Message['role'], status: Message['status'], content = 'text'): Message => ({ id, role, status, content, createdAt: new Date(0) })

  it('reads each finished, non-empty reply once, in order; never a user message or a reply still streaming', () => {
    const messages = [message('u1', 'user', 'complete'), message('a1', 'assistant', 'complete'), message('a2', 'assistant', 'streaming'), message('a3', 'assistant', 'complete', '')]
    expect(finishedReplies(messages, new Set()).map((m) => m.id)).toEqual(['a1'])
    expect(finishedReplies(messages, new Set(['a1']))).toEqual([])
  })
})
