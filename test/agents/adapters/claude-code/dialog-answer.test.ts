import { describe, expect, it } from 'vitest'
import { answerAsNextTurn, decisionForAnswer } from '../../../../src/agents/claude-code/adapter/dialog-answer.js'
import type { Dialog } from '../../../../src/contract/dialog.js'

const question: Dialog = { toolId: 'toolu_1', kind: 'question', prompt: 'Which color?', options: [{ label: 'Red' }, { label: 'Blue' }], multiSelect: false, answerable: true }
const plan: Dialog = { toolId: 'toolu_2', kind: 'plan', prompt: '# Plan', options: [], multiSelect: false, answerable: true }
const input = { questions: [{ question: 'Which color?' }, { question: 'Extras?' }] }

describe('decisionForAnswer', () => {
  it('allows an AskUserQuestion with the answers keyed by question text; multi-select and free text joined by ", "', () => {
    expect(
      decisionForAnswer(question, input, {
        kind: 'question',
        answers: [
          { question: 'Which color?', chosen: ['Red'] },
          { question: 'Extras?', chosen: ['Icon', 'Shadow'], otherText: 'rounded' },
        ],
      }),
    ).toEqual({ behavior: 'allow', updatedInput: { ...input, answers: { 'Which color?': 'Red', 'Extras?': 'Icon, Shadow, rounded' } } })
  })

  it('approves a plan unchanged, and rejects it in the CLI\'s own words, with or without feedback', () => {
    expect(decisionForAnswer(plan, { plan: '# Plan' }, { kind: 'plan', approved: true })).toEqual({ behavior: 'allow', updatedInput: { plan: '# Plan' } })
    const withFeedback = decisionForAnswer(plan, {}, { kind: 'plan', approved: false, feedback: 'Smaller steps' })
    expect(withFeedback).toMatchObject({ behavior: 'deny', message: expect.stringMatching(/^The user doesn't want to proceed with this tool use\..*the user said:\nSmaller steps$/s) })
    expect(decisionForAnswer(plan, {}, { kind: 'plan', approved: false })).toMatchObject({ behavior: 'deny', message: expect.stringContaining('STOP what you are doing') })
  })

  it('refuses an answer of the wrong kind, naming the kind to use', () => {
    expect(() => decisionForAnswer(plan, {}, { kind: 'question', answers: [] })).toThrow(/plan dialog but the answer is for a question dialog/)
  })
})

describe('answerAsNextTurn', () => {
  it('writes the answer as the text of the next user message', () => {
    expect(answerAsNextTurn(question, { kind: 'question', answers: [{ question: 'Which color?', chosen: ['Blue'] }] })).toBe('My answers to your questions: "Which color?" = "Blue".')
    expect(answerAsNextTurn(plan, { kind: 'plan', approved: true })).toBe('I approve the plan. Go ahead.')
    expect(answerAsNextTurn(plan, { kind: 'plan', approved: false, feedback: 'Smaller steps.' })).toBe("I don't approve the plan. Smaller steps.")
  })
})
