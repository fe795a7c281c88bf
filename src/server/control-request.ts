import * as z from 'zod/mini'
import { inEnglish } from '../contract/english-issues.js'
import type { DialogAnswerInput } from '../contract/dialog.js'
import { isIdentifier } from '../conversation/identifier.js'
import { badRequest } from './http-responses.js'

/**
 * The two POST bodies that are not a turn, told apart from `useChat`'s request by their `action`:
 * - `{ id, action: 'stop' }` stops the turn running in the conversation, on whichever instance runs it;
 * - `{ id, action: 'answer-dialog', toolId, answer }` answers the running agent's pending dialog
 *   (`answer` is a `DialogAnswerInput`: `{ kind: 'question', answers }` or `{ kind: 'plan', approved, feedback? }`).
 * Both travel through the store as a signal the turn's lease holder polls (instances never talk
 * to each other).
 */
export type ControlRequest =
  | { readonly conversationId: string; readonly action: 'stop' }
  | { readonly conversationId: string; readonly action: 'answer-dialog'; readonly toolId: string; readonly answer: DialogAnswerInput }

const dialogAnswer = z.union([
  z.object({
    kind: z.literal('question'),
    answers: z.array(z.object({ question: z.string(), chosen: z.array(z.string()), otherText: z.optional(z.string()) })),
  }),
  z.object({ kind: z.literal('plan'), approved: z.boolean(), feedback: z.optional(z.string()) }),
])

const stopSchema = z.object({ id: z.string(), action: z.literal('stop') })
const answerSchema = z.object({ id: z.string(), action: z.literal('answer-dialog'), toolId: z.string(), answer: dialogAnswer })

/** Whether a POSTed JSON body is a control request (it names an `action`) rather than a turn. */
export const isControlBody = (body: unknown): boolean => typeof body === 'object' && body !== null && !Array.isArray(body) && 'action' in body

export function readControlRequest(body: unknown): ControlRequest {
  const action = (body as { action?: unknown }).action
  if (action !== 'stop' && action !== 'answer-dialog') throw badRequest('action', `Unknown action ${JSON.stringify(action)}: send { id, action: 'stop' } or { id, action: 'answer-dialog', toolId, answer }.`)
  // one schema per action, so an issue names the field (a union would only say "no match")
  const parsed = action === 'stop' ? stopSchema.safeParse(body, inEnglish) : answerSchema.safeParse(body, inEnglish)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue?.path.map(String).join('.') || '(root)'
    throw badRequest(path, `${issue?.message ?? 'Invalid request'} at ${path}. Send { id, action: 'stop' } or { id, action: 'answer-dialog', toolId, answer: { kind: 'question', answers } | { kind: 'plan', approved } }.`)
  }
  const request = parsed.data
  if (!isIdentifier(request.id)) throw badRequest('id', 'The conversation id must be letters, digits and . _ : - (starting with a letter or digit, at most 128 characters).')
  if (request.action === 'stop') return { conversationId: request.id, action: 'stop' }
  if (request.toolId === '' || request.toolId.length > 256) throw badRequest('toolId', 'toolId must name the pending dialog (its toolId, 1 to 256 characters).')
  const answer: DialogAnswerInput = request.answer.kind === 'plan'
    ? { kind: 'plan', approved: request.answer.approved, ...(request.answer.feedback === undefined ? {} : { feedback: request.answer.feedback }) }
    : { kind: 'question', answers: request.answer.answers.map((a) => ({ question: a.question, chosen: a.chosen, ...(a.otherText === undefined ? {} : { otherText: a.otherText }) })) }
  return { conversationId: request.id, action: 'answer-dialog', toolId: request.toolId, answer }
}
