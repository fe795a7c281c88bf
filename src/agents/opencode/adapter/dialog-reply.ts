import type { DialogAnswerInput } from '../../../contract/dialog.js'
import { ChatrailError } from '../../../contract/errors.js'
import { PERMISSION_OPTIONS } from '../dialogs.js'
import type { PermissionReply } from '../dialogs.js'

/**
 * A chatrail dialog answer → the body OpenCode takes. Pure.
 *
 * - permission (`POST /permission/:id/reply`): a question answer choosing `Allow once` / `Always
 *   allow` / `Reject` (or OpenCode's own words `once` / `always` / `reject`); a plan answer
 *   `approved: true` is `once`, `false` is `reject` with the feedback as the message to the agent.
 * - question (`POST /question/:id/reply`): one array per question: the chosen labels, then the typed
 *   text (`otherText`) as one more entry; `Other` itself is never sent.
 */

export function permissionReplyBody(toolId: string, answer: DialogAnswerInput): { reply: PermissionReply; message?: string } {
  if (answer.kind === 'plan') return answer.approved ? { reply: 'once' } : { reply: 'reject', ...(answer.feedback ? { message: answer.feedback } : {}) }
  const chosen = answer.answers[0]?.chosen[0]
  const reply = (Object.keys(PERMISSION_OPTIONS) as PermissionReply[]).find((key) => chosen === key || chosen === PERMISSION_OPTIONS[key])
  if (reply === undefined) {
    throw new ChatrailError({
      code: 'DIALOG_ANSWER_MISMATCH',
      message: `Permission ${toolId} takes one of ${Object.values(PERMISSION_OPTIONS).map((label) => JSON.stringify(label)).join(', ')}; got ${JSON.stringify(chosen ?? null)}.`,
      hint: `Answer with { kind: 'question', answers: [{ question, chosen: ['${PERMISSION_OPTIONS.once}'] }] } or { kind: 'plan', approved }.`,
    })
  }
  const otherText = answer.answers[0]?.otherText
  return reply === 'reject' && otherText ? { reply, message: otherText } : { reply }
}

export function questionReplyBody(toolId: string, answer: DialogAnswerInput, questionCount: number): { answers: string[][] } {
  if (answer.kind !== 'question') {
    throw new ChatrailError({
      code: 'DIALOG_ANSWER_MISMATCH',
      message: `Dialog ${toolId} is a question dialog but the answer is for a ${answer.kind} dialog.`,
      hint: "Answer with { kind: 'question', answers: [...] }.",
    })
  }
  const answers = Array.from({ length: Math.max(questionCount, answer.answers.length) }, (_, index) => {
    const given = answer.answers[index]
    if (!given) return []
    const chosen = given.chosen.filter((label) => label !== 'Other')
    return given.otherText ? [...chosen, given.otherText] : chosen
  })
  return { answers }
}
