import type { Dialog, DialogOption, DialogQuestion } from '../../contract/dialog.js'
import { arr, asObject, str } from './record-fields.js'

/**
 * Claude Code's dialog tools and how their `tool_use` input becomes a `Dialog` (seed 001). Pure.
 * Prompts are never truncated: a question's text is the key its answer is recorded under, and a
 * cut plan is unreviewable.
 */

export const DIALOG_TOOLS: ReadonlySet<string> = new Set(['AskUserQuestion', 'ExitPlanMode'])

export function isDialogTool(name: string): boolean {
  return DIALOG_TOOLS.has(name)
}

/** The implicit free-text row the CLI adds under every question. */
export const OTHER_OPTION: DialogOption = { label: 'Other', isOther: true }

/** The rows of the 2.1.x plan approval picker; the last carries typed feedback. */
export const PLAN_OPTIONS: readonly DialogOption[] = [
  { label: 'Yes, and use auto mode', description: 'Approve the plan and let Claude act without asking' },
  { label: 'Yes, manually approve edits', description: 'Approve the plan and review each edit' },
  { label: 'No, tell Claude what to change', description: 'Reject the plan with feedback', isOther: true },
]

export const DEFAULT_PLAN_PROMPT = 'Plan ready for review'
export const UNREADABLE_QUESTION_PROMPT = 'Interactive question'

/**
 * Maps a dialog tool's input. `AskUserQuestion` with one question gives flat fields; with several,
 * `prompt`/`options`/`multiSelect` describe the first and `questions` lists them all. Bad input
 * gives an unanswerable dialog (it can only be answered in the CLI). `ExitPlanMode` gives the full
 * plan (from `input.plan`, else a pointer to the plan file).
 */
export function dialogFromToolUse(toolId: string, name: string, input: unknown): Dialog {
  if (name === 'ExitPlanMode') return planDialog(toolId, input)
  const questions = readQuestions(input)
  const first = questions[0]
  if (first === undefined) {
    return { toolId, kind: 'question', prompt: UNREADABLE_QUESTION_PROMPT, options: [], multiSelect: false, answerable: false }
  }
  const answerable = questions.every((q) => q.options.length > 1)
  const dialog: Dialog = {
    toolId,
    kind: 'question',
    prompt: first.question,
    options: first.options,
    multiSelect: first.multiSelect,
    answerable,
  }
  if (questions.length > 1) dialog.questions = questions
  return dialog
}

function planDialog(toolId: string, input: unknown): Dialog {
  const fields = asObject(input)
  const plan = str(fields?.plan)
  const file = str(fields?.planFilePath)
  const prompt = plan !== undefined && plan.trim() !== '' ? plan : file !== undefined ? `${DEFAULT_PLAN_PROMPT}: ${file}` : DEFAULT_PLAN_PROMPT
  return { toolId, kind: 'plan', prompt, options: [...PLAN_OPTIONS], multiSelect: false, answerable: true }
}

/** The questions of an `AskUserQuestion` input, each with the implicit Other row appended. */
export function readQuestions(input: unknown): DialogQuestion[] {
  const list = arr(asObject(input)?.questions) ?? []
  const out: DialogQuestion[] = []
  for (const item of list) {
    const q = asObject(item)
    const question = str(q?.question)
    if (q === undefined || question === undefined || question.trim() === '') return []
    const options: DialogOption[] = []
    for (const raw of arr(q.options) ?? []) {
      const option = asObject(raw)
      const label = str(option?.label)
      if (label === undefined) continue
      const description = str(option?.description)
      options.push(description !== undefined && description !== '' ? { label, description } : { label })
    }
    const header = str(q.header)
    out.push({
      question,
      ...(header !== undefined && header !== '' ? { header } : {}),
      options: options.length > 0 ? [...options, { ...OTHER_OPTION }] : [],
      multiSelect: q.multiSelect === true,
    })
  }
  return out
}
