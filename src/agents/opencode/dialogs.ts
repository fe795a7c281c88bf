import type { Dialog, DialogAnswer, DialogOption, DialogOutcome, DialogQuestion } from '../../contract/dialog.js'
import { arrayField, isRecord, recordField, stringField } from '../process/json-value.js'
import type { JsonRecord } from '../process/json-value.js'

/**
 * OpenCode's two kinds of request as chatrail dialogs (seed 001's shape):
 *
 * - a `question` request (the `question` tool) → `kind: 'question'`, one `DialogQuestion` per
 *   question, `multiSelect` from `multiple`, and the implicit `Other` row unless `custom: false`
 *   (OpenCode allows typed answers by default). Its `toolId` is the tool's call id, so the dialog
 *   message in the history and the pending dialog are one and the same.
 * - a `permission` request → `kind: 'question'` with the three replies OpenCode takes (once,
 *   always, reject) as options; its `toolId` is the request id (`per_…`).
 */

export const PERMISSION_OPTIONS = {
  once: 'Allow once',
  always: 'Always allow',
  reject: 'Reject',
} as const

export type PermissionReply = keyof typeof PERMISSION_OPTIONS

export function questionsOf(input: unknown): DialogQuestion[] {
  return (arrayField(input, 'questions') ?? []).filter(isRecord).map((info) => {
    const options: DialogOption[] = (arrayField(info, 'options') ?? []).filter(isRecord).flatMap((option) => {
      const label = stringField(option, 'label')
      if (label === undefined) return []
      const description = stringField(option, 'description')
      return [description === undefined || description === '' ? { label } : { label, description }]
    })
    if (info.custom !== false) options.push({ label: 'Other', isOther: true })
    const header = stringField(info, 'header')
    return { question: stringField(info, 'question') ?? '', ...(header ? { header } : {}), options, multiSelect: info.multiple === true }
  })
}

/** The pending dialog of a `question` request (from `question.asked` or `GET /question`). */
export function questionDialog(request: JsonRecord): Dialog {
  const questions = questionsOf(request)
  const first = questions[0]
  return {
    toolId: stringField(recordField(request, 'tool'), 'callID') ?? stringField(request, 'id') ?? '',
    kind: 'question',
    prompt: first?.question ?? '',
    options: first?.options ?? [],
    multiSelect: first?.multiSelect ?? false,
    ...(questions.length > 1 ? { questions } : {}),
    answerable: true,
  }
}

/** The pending dialog of a `permission` request (from `permission.asked` or `GET /permission`). */
export function permissionDialog(request: JsonRecord): Dialog {
  const always = (arrayField(request, 'always') ?? []).filter((item): item is string => typeof item === 'string')
  return {
    toolId: stringField(request, 'id') ?? '',
    kind: 'question',
    prompt: permissionPrompt(request),
    options: [
      { label: PERMISSION_OPTIONS.once, description: 'run it this time' },
      { label: PERMISSION_OPTIONS.always, description: always.length > 0 ? `also allow ${always.join(', ')} from now on` : 'allow it from now on' },
      { label: PERMISSION_OPTIONS.reject, description: 'deny it; the agent is told' },
    ],
    multiSelect: false,
    answerable: true,
  }
}

/** `Allow bash: echo hi?` */
export function permissionPrompt(request: JsonRecord): string {
  const permission = stringField(request, 'permission') ?? 'a tool'
  const patterns = (arrayField(request, 'patterns') ?? []).filter((item): item is string => typeof item === 'string')
  return patterns.length > 0 ? `Allow ${permission}: ${patterns.join(', ')}?` : `Allow ${permission}?`
}

/**
 * The outcome of an answered question: OpenCode replies with one array of strings per question; a
 * string that is one of the question's labels was chosen, the rest is typed text (`otherText`).
 * `null` (rejected) is dismissed.
 */
export function questionOutcome(questions: readonly DialogQuestion[], answers: string[][] | null): DialogOutcome {
  if (answers === null) return { dismissed: true, approved: false }
  const results: DialogAnswer[] = questions.map((question, index) => {
    const given = answers[index] ?? []
    const labels = new Set(question.options.filter((option) => option.isOther !== true).map((option) => option.label))
    const chosen = given.filter((answer) => labels.has(answer))
    const other = given.filter((answer) => !labels.has(answer))
    return { question: question.question, chosen, ...(other.length > 0 ? { otherText: other.join(', ') } : {}) }
  })
  return { dismissed: false, approved: false, results }
}
