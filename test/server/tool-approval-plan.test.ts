import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { HttpError } from '../../src/server/http-responses.js'
import { planApproval, readToolApproval } from '../../src/server/tool-approval.js'
import type { StoredTool } from '../../src/server/tool-ledger.js'
import type { PausedLoop } from '../../src/server/tool-loop.js'

// What an approval asks of the stored conversation (pure): the answers land on exactly the calls
// they name, every pending call must be answered, an answer already stored (a crash's retry) stands.

const at = new Date(0)
const user: Message = { id: 'u1', role: 'user', content: 'pay', status: 'complete', createdAt: at }

function pausedAnswer(calls: number, answeredBefore: ReadonlySet<number>): Message {
  const tools: StoredTool[] = Array.from({ length: calls }, (_, i) => ({
    toolCallId: `c${i}`,
    toolName: 'pay',
    input: { amount: i },
    state: 'approval-requested',
    approval: answeredBefore.has(i) ? { id: `ap${i}`, approved: true } : { id: `ap${i}` },
    at: 0,
  }))
  const toolLoop: PausedLoop = { step: 1, steps: [], text: '', calls: tools.map((tool, i) => ({ id: tool.toolCallId, name: 'pay', args: { amount: i }, approvalId: `ap${i}` })) }
  return { id: 'a1', role: 'assistant', content: '', status: 'complete', createdAt: at, metadata: { tools, toolLoop } }
}

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run()
    return undefined
  } catch (error) {
    return error instanceof HttpError ? error.code : 'not-http'
  }
}

describe('planApproval', () => {
  it('resumes exactly when every pending call is answered (now or before), each call getting its own answer', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }).chain((calls) => fc.tuple(fc.constant(calls), fc.subarray([...Array(calls).keys()]), fc.subarray([...Array(calls).keys()]), fc.array(fc.boolean(), { minLength: calls, maxLength: calls }))),
      ([calls, before, given, verdicts]) => {
        const answeredBefore = new Set(before)
        const answers = new Map(given.map((i) => [`ap${i}`, { approved: verdicts[i] as boolean }]))
        const request = { conversationId: 'c', messageId: 'a1', answers }
        const complete = [...Array(calls).keys()].every((i) => answeredBefore.has(i) || given.includes(i))
        const messages = [user, pausedAnswer(calls, answeredBefore)]
        if (!complete) {
          expect(codeOf(() => planApproval(messages, request))).toBe('approval_missing')
          return
        }
        const plan = planApproval(messages, request)
        expect(plan.kind).toBe('resume')
        if (plan.kind !== 'resume') return
        expect(plan.user.id).toBe('u1')
        expect(plan.write).toEqual({ truncateAfter: 'u1', includeUser: false })
        const tools = plan.resume.answer.metadata?.tools as StoredTool[]
        for (let i = 0; i < calls; i++) {
          // an answer stored before wins: the retry after a crash never flips it
          expect(tools[i]?.approval?.approved).toBe(answeredBefore.has(i) ? true : verdicts[i])
        }
      },
    ))
  })

  it('an answer awaiting nothing is answered from the store; a stale or unknown one is refused', () => {
    const done: Message = { id: 'a1', role: 'assistant', content: 'Paid.', status: 'complete', createdAt: at, metadata: { tools: [{ toolCallId: 'c0', toolName: 'pay', input: {}, state: 'output-available', output: 1, at: 0, approval: { id: 'ap0', approved: true } }] } }
    const request = { conversationId: 'c', messageId: 'a1', answers: new Map([['ap0', { approved: true }]]) }
    expect(planApproval([user, done], request)).toEqual({ kind: 'answered', position: 0 })
    const later: Message = { id: 'u2', role: 'user', content: 'next', status: 'complete', createdAt: at }
    expect(codeOf(() => planApproval([user, pausedAnswer(1, new Set()), later], request))).toBe('approval_stale')
    expect(codeOf(() => planApproval([user], request))).toBe('unknown_message')
  })
})

describe('readToolApproval', () => {
  const body = (part: Record<string, unknown>): unknown => ({ id: 'c1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [] }, { id: 'a1', role: 'assistant', parts: [part] }] })

  it('reads useChat\'s approval-responded parts from the last message only', () => {
    expect(readToolApproval(body({ type: 'tool-pay', toolCallId: 'c0', state: 'approval-responded', approval: { id: 'ap0', approved: false, reason: 'no' } })))
      .toEqual({ conversationId: 'c1', messageId: 'a1', answers: new Map([['ap0', { approved: false, reason: 'no' }]]) })
    expect(readToolApproval(body({ type: 'tool-pay', toolCallId: 'c0', state: 'approval-requested', approval: { id: 'ap0' } }))).toBeUndefined()
    expect(readToolApproval({ id: 'c1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] })).toBeUndefined()
  })

  it('a malformed approval is a 400 naming the part', () => {
    let error: unknown
    try {
      readToolApproval(body({ type: 'tool-pay', toolCallId: 'c0', state: 'approval-responded', approval: { id: 'ap0', approved: 'yes' } }))
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 400, path: 'messages.1.parts.0.approval' })
  })
})
