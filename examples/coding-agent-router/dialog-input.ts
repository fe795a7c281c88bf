import type { Dialog, DialogAnswerInput } from '../../src/agents/claude-code/index.js'

/**
 * How the terminal example reads an answer to a pending dialog from one typed line. Questions:
 * option numbers ("2", "1,3") or any other text as a free-text answer. Plans: "y" approves,
 * "n" rejects, "n <feedback>" rejects with feedback. Only the first question of a multi-question
 * dialog is asked here; the others get no answer (the agent sees them unanswered).
 */
export function answerFromLine(dialog: Dialog, line: string): DialogAnswerInput {
  const text = line.trim()
  if (dialog.kind === 'plan') {
    if (/^y(es)?$/i.test(text)) return { kind: 'plan', approved: true }
    const feedback = text.replace(/^no?\b\s*/i, '')
    return feedback === '' ? { kind: 'plan', approved: false } : { kind: 'plan', approved: false, feedback }
  }
  const picks = /^\d+(\s*,\s*\d+)*$/.test(text) ? text.split(',').map((part) => dialog.options[Number(part.trim()) - 1]) : []
  if (picks.length > 0 && picks.every((option) => option !== undefined && !option.isOther)) {
    return { kind: 'question', answers: [{ question: dialog.prompt, chosen: picks.map((option) => option?.label ?? '') }] }
  }
  return { kind: 'question', answers: [{ question: dialog.prompt, chosen: [], otherText: text }] }
}

/** The dialog as terminal lines: the prompt, then numbered options (or the plan and y/n). */
export function dialogLines(dialog: Dialog): string[] {
  if (dialog.kind === 'plan') return ['The agent proposes a plan:', dialog.prompt, 'Approve? y / n [feedback]']
  const options = dialog.options.filter((option) => !option.isOther).map((option, index) => `  ${index + 1}. ${option.label}${option.description ? ` — ${option.description}` : ''}`)
  return [`The agent asks: ${dialog.prompt}`, ...options, dialog.multiSelect ? 'Answer with numbers (e.g. 1,2) or type your own answer.' : 'Answer with a number or type your own answer.']
}
