import type { UIMessage } from 'ai'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { aiSdkAdapter } from '../../src/ai-sdk/index.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { defineChat } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { scriptedModel, textParts, toolCallParts } from '../ai-sdk/mock-model.js'

/**
 * Invariant 11 across the two doors of one AI SDK tool approval (tool-confirmations.ts): the
 * server's approve/reject endpoints and the chat's `addToolApprovalResponse`, in any order, any
 * number of times, at once or one after another, before or after the record expires. The call runs
 * at most once; never when the record ends rejected or expired; always when it ends approved; the
 * answer goes on exactly once when the record is decided, whichever door decided it; and the model
 * reads what the record says.
 */

type Op = { kind: 'endpoint'; approve: boolean } | { kind: 'chat'; approve: boolean } | { kind: 'expire' }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('endpoint' as const), approve: fc.boolean() }),
  fc.record({ kind: fc.constant('chat' as const), approve: fc.boolean() }),
  fc.constant({ kind: 'expire' as const }),
)

const TTL = 60_000

describe('AI SDK tool approvals: the two doors never run a call twice, or after a rejection or expiry', () => {
  it('holds for any interleaving of approve-action / reject-action / addToolApprovalResponse / expiry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(op, { minLength: 1, maxLength: 6 }), async (s, ops) => {
        let time = Date.UTC(2031, 0, 1)
        const runs: Array<string | undefined> = []
        const pay: ToolDefinition = { name: 'pay', requiresConfirmation: true, execute: (_args, context) => (runs.push(context.idempotencyKey), 'paid') }
        const model = scriptedModel([toolCallParts('pay', { amount: 1 }), textParts('Done.'), textParts('Done.')])
        const definition = defineChat({ id: 'doors', chat: { adapter: aiSdkAdapter({ model: model.model, maxRetries: 0 }), tools: [pay] }, conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] } })
        const store = memoryStore()
        const handler = createChatHandler({ definition, store, authenticate: 'none', clock: () => time, confirmations: { ttlMs: TTL } })
        const post = async (body: unknown): Promise<{ status: number; text: string }> => {
          const response = await handler(new Request('http://local/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
          return { status: response.status, text: await response.text() }
        }
        try {
          expect((await post({ id: 'c', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay 1' }] }] })).status).toBe(200)
          const paused = (await store.load('c'))?.messages[1]?.metadata?.toolLoop as { calls: Array<{ approvalId: string; token: string }> }
          const { approvalId, token } = paused.calls[0]!
          const { messages } = (await (await handler(new Request('http://local/api/chat?id=c'))).json()) as { messages: UIMessage[] }
          const chatAnswer = (approved: boolean): unknown => {
            const [user, answer] = messages as [UIMessage, UIMessage]
            const parts = answer.parts.map((part) => (part.type === 'tool-pay' ? { ...part, state: 'approval-responded', approval: { id: approvalId, approved } } : part))
            return { id: 'c', trigger: 'submit-message', messageId: answer.id, messages: [user, { ...answer, parts }] }
          }

          const statuses: number[] = []
          const running = ops.map((o) =>
            s.schedule(Promise.resolve(), o.kind).then(async () => {
              if (o.kind === 'expire') time += TTL
              else if (o.kind === 'endpoint') statuses.push((await post({ id: 'c', action: o.approve ? 'approve-action' : 'reject-action', token })).status)
              else statuses.push((await post(chatAnswer(o.approve))).status)
            }),
          )
          await s.waitFor(Promise.all(running))
          // every request was answered: 200, or 409 for a contrary or concurrent chat answer
          for (const status of statuses) expect([200, 409]).toContain(status)
          await handler.close({ deadlineMs: 5_000 })

          const record = await store.loadConfirmation?.(token)
          // nothing is left mid-way: every door that took the record finished it
          expect(['pending', 'approved', 'rejected', 'expired']).toContain(record?.status)
          expect(runs.length).toBeLessThanOrEqual(1)
          if (record?.status === 'approved') {
            expect(runs).toEqual([`c:${approvalId}`])
            expect(record.decidedAt).toBeLessThan(record.expiresAt)
          } else expect(runs).toEqual([])
          // the answer went on exactly once once the record was decided, through either door (an endpoint
          // decision continues it on the server: approval-continuation.ts), and never while it waits
          const stored = (await store.load('c'))?.messages
          if (record?.status === 'pending') expect(model.calls).toHaveLength(1)
          else {
            expect(model.calls).toHaveLength(2)
            expect(stored?.[1]?.metadata?.toolLoop).toBeUndefined()
          }
          expect(stored).toHaveLength(2)
          // a resumed turn told the model what the record says
          const second = model.calls[1]
          if (second) {
            const result = JSON.stringify(second.prompt.filter((message) => message.role === 'tool'))
            if (record?.status === 'approved') expect(result).toContain('paid')
            else expect(result).not.toContain('paid')
          }
        } finally {
          await handler.close({ deadlineMs: 1 })
          await store.close()
        }
      }),
      { numRuns: 60 },
    )
  }, 120_000)
})
