import { describe, expect, it } from 'vitest'
import type { ActionConfirmation, ConfirmationChange, ConfirmationLedger, TrustedActionContext } from '../../src/contract/action-confirmation.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import type { ActionConfirmationOptions } from '../../src/conversation/action-confirmation.js'
import { createActionConfirmation, createCapabilityPolicy } from '../../src/conversation/actions.js'
import { memoryConfirmationLedger } from '../../src/conversation/confirmation-ledger.js'
import { createChatController } from '../../src/controller/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

const T0 = Date.UTC(2026, 0, 1)

function harness(over: Partial<ActionConfirmationOptions> = {}) {
  let time = T0
  let n = 0
  const runs: Array<{ input: Record<string, unknown>; key: string | undefined }> = []
  const effects = new Set<string>()
  const refund: ToolDefinition = {
    name: 'refund',
    requiresConfirmation: true,
    execute: (input, context) => {
      runs.push({ input, key: context.idempotencyKey })
      if (context.idempotencyKey) effects.add(context.idempotencyKey)
      return 'ok'
    },
  }
  const changes: ConfirmationChange[] = []
  const ledger = over.ledger ?? memoryConfirmationLedger()
  const make = (extra: Partial<ActionConfirmationOptions> = {}) =>
    createActionConfirmation({ sessionId: 's1', principal: 'alice', tools: [refund], ledger, now: () => time, createId: () => `id${++n}`, onChange: (c) => void changes.push(c), ttlMs: 60_000, claimMs: 10_000, ...over, ...extra })
  return { make, runs, effects, changes, ledger, advance: (ms: number) => void (time += ms), now: () => time }
}

describe('createActionConfirmation', () => {
  it('propose → approve executes once with the record’s idempotency key; a second approve returns the record', async () => {
    const h = harness()
    const confirmations = h.make()
    const proposed = await confirmations.propose({ name: 'refund', input: { amount: 5 } })
    expect(proposed).toMatchObject({ status: 'pending', sessionId: 's1', principal: 'alice', toolCallId: 'app-id1', idempotencyKey: 'id2' })
    expect(proposed.token).toMatch(/^ct-/)
    const approved = await confirmations.approve(proposed.token, 's1')
    expect(approved).toMatchObject({ status: 'approved', decidedBy: 'alice', decidedAt: T0, outcome: { status: 'complete' } })
    expect(await confirmations.approve(proposed.token, 's1')).toEqual(approved)
    expect(h.runs).toEqual([{ input: { amount: 5 }, key: 'id2' }])
    expect(confirmations.getByToolCall('app-id1')?.status).toBe('approved')
  })

  it('concurrent approves in one process and from two coordinators on one ledger execute once', async () => {
    const h = harness()
    const a = h.make()
    const b = h.make()
    const { token } = await a.propose({ name: 'refund', input: { amount: 1 } })
    const results = await Promise.all([a.approve(token, 's1'), a.approve(token, 's1'), b.approve(token, 's1'), b.approve(token, 's1')])
    expect(h.runs).toHaveLength(1)
    expect(results.every((r) => r.token === token)).toBe(true)
    expect((await a.get(token))?.status).toBe('approved')
  })

  it('is single-flight per token: concurrent calls in one coordinator share one attempt (both see it approved)', async () => {
    const h = harness()
    const confirmations = h.make()
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    const [a, b, c] = await Promise.all([confirmations.approve(token, 's1'), confirmations.approve(token, 's1'), confirmations.reject(token, 's1')])
    expect([a.status, b.status, c.status]).toEqual(['approved', 'approved', 'approved'])
    expect(h.runs).toHaveLength(1)
  })

  it('the input is a frozen clone: mutating the proposed object changes nothing', async () => {
    const h = harness()
    const confirmations = h.make()
    const input = { amount: 5, lines: ['a'] }
    const { token, action } = await confirmations.propose({ name: 'refund', input })
    input.amount = 500
    input.lines.push('b')
    expect(Object.isFrozen(action.input)).toBe(true)
    await confirmations.approve(token, 's1')
    expect(h.runs[0]?.input).toEqual({ amount: 5, lines: ['a'] })
  })

  it('reject: never executes, then approve returns the rejected record', async () => {
    const h = harness()
    const confirmations = h.make()
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    expect(await confirmations.reject(token, 's1', 'not today')).toMatchObject({ status: 'rejected', reason: 'not today', decidedBy: 'alice' })
    expect((await confirmations.approve(token, 's1')).status).toBe('rejected')
    expect(h.runs).toEqual([])
  })

  it('expiry: an approve after expiresAt expires it; sweepExpired and reads expire too', async () => {
    const h = harness()
    const confirmations = h.make()
    const late = await confirmations.propose({ name: 'refund', input: { n: 1 } })
    const swept = await confirmations.propose({ name: 'refund', input: { n: 2 } })
    const read = await confirmations.propose({ name: 'refund', input: { n: 3 } })
    h.advance(60_000)
    expect(await confirmations.approve(late.token, 's1')).toMatchObject({ status: 'expired', decidedBy: 'expiry', reason: 'confirmation expired' })
    expect((await confirmations.sweepExpired()).map((r) => r.token).sort()).toEqual([swept.token, read.token].sort())
    const fresh = await confirmations.propose({ name: 'refund', input: { n: 4 } })
    h.advance(60_000)
    expect((await confirmations.get(fresh.token))?.status).toBe('expired')
    expect(h.runs).toEqual([])
  })

  it('a foreign session, a foreign principal and an unknown token are CONFIRMATION_NOT_FOUND and never execute', async () => {
    const h = harness()
    const mine = h.make()
    const { token } = await mine.propose({ name: 'refund', input: {} })
    await expect(mine.approve(token, 's2')).rejects.toMatchObject({ code: 'CONFIRMATION_NOT_FOUND' })
    await expect(mine.approve(token, { sessionId: 's1', principal: 'mallory' })).rejects.toMatchObject({ code: 'CONFIRMATION_NOT_FOUND' })
    await expect(mine.approve('ct-guessedguessedguessed', 's1')).rejects.toMatchObject({ code: 'CONFIRMATION_NOT_FOUND' })
    // another session's coordinator on the same ledger does not see it
    const other = h.make({ sessionId: 's2' })
    await expect(other.approve(token, 's2')).rejects.toMatchObject({ code: 'CONFIRMATION_NOT_FOUND' })
    expect(h.runs).toEqual([])
  })

  it('notifies one delta { record, from, to } per status change', async () => {
    const h = harness()
    const confirmations = h.make()
    const seen: string[] = []
    const unsubscribe = confirmations.subscribe((change) => seen.push(`${change.from ?? '∅'}→${change.to}`))
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    await confirmations.approve(token, 's1')
    unsubscribe()
    expect(seen).toEqual(['∅→pending', 'pending→approving', 'approving→executing', 'executing→approved'])
    expect(h.changes.map((c) => c.to)).toEqual(['pending', 'approving', 'executing', 'approved'])
    expect(h.changes.at(-1)?.record.status).toBe('approved')
  })

  it('refuses an unknown tool, a tool without requiresConfirmation, and non-JSON input', async () => {
    const h = harness({ tools: [{ name: 'plain', execute: () => 'x' }] })
    const confirmations = h.make()
    await expect(confirmations.propose({ name: 'nope', input: {} })).rejects.toMatchObject({ code: 'ACTION_UNKNOWN' })
    await expect(confirmations.propose({ name: 'plain', input: {} })).rejects.toMatchObject({ code: 'ACTION_UNKNOWN' })
    await expect(confirmations.propose({ name: 'plain', input: { when: new Date() } })).rejects.toMatchObject({ code: 'ACTION_INVALID' })
    expect(() => createActionConfirmation({ sessionId: 's1' })).toThrow(/exactly one of chat, tools or executor/)
  })
})

describe('crash recovery: reconcile(token)', () => {
  /** A ledger whose writes after the nth one fail: the process "dies" with its record in place. */
  function dyingLedger(base: ConfirmationLedger, failAfter: number): ConfirmationLedger & { dead: boolean } {
    let writes = 0
    const ledger = {
      dead: false,
      saveConfirmation: async (record: ActionConfirmation, expected: number) => {
        if (++writes > failAfter) {
          ledger.dead = true
          throw new Error('process died')
        }
        return base.saveConfirmation(record, expected)
      },
      loadConfirmation: base.loadConfirmation,
      listConfirmations: base.listConfirmations,
    }
    return ledger
  }

  it('a record left approving (died before execute) is executed once, after its claim ran out', async () => {
    const h = harness()
    const dying = dyingLedger(h.ledger, 2) // the proposal and the approving claim are written; the execute step is not
    const first = h.make({ ledger: dying })
    const { token } = await first.propose({ name: 'refund', input: { amount: 1 } })
    await expect(first.approve(token, 's1')).rejects.toThrow('process died')
    const survivor = h.make()
    expect((await survivor.get(token))?.status).toBe('approving')
    expect((await survivor.reconcile(token))?.status).toBe('approving') // the claim is still live
    h.advance(10_000)
    expect(await survivor.reconcile(token)).toMatchObject({ status: 'approved', attempts: 1 })
    expect(await survivor.reconcile(token)).toMatchObject({ status: 'approved', attempts: 1 })
    expect(h.runs).toHaveLength(1)
  })

  it('a record left executing is executed again with the same idempotency key: the effect happens once', async () => {
    const h = harness()
    const dying = dyingLedger(h.ledger, 3) // proposal, approving, executing written; the outcome is not
    const first = h.make({ ledger: dying })
    const { token, idempotencyKey } = await first.propose({ name: 'refund', input: {} })
    await expect(first.approve(token, 's1')).rejects.toThrow('process died')
    h.advance(10_000)
    const survivor = h.make()
    expect(await survivor.reconcile(token)).toMatchObject({ status: 'approved', attempts: 1 })
    expect(h.runs.map((r) => r.key)).toEqual([idempotencyKey, idempotencyKey])
    expect(h.effects.size).toBe(1)
  })

  it('a holder whose claim ran out before it reached execute leaves the record to the process that took it over: one execution', async () => {
    const h = harness()
    // the holder stalls right after writing `executing` (a long GC pause, a slow store), past its claim
    let release: (() => void) | undefined
    const stalling: ConfirmationLedger = {
      ...h.ledger,
      saveConfirmation: async (record, expected) => {
        const saved = await h.ledger.saveConfirmation(record, expected)
        if (saved && record.status === 'executing' && release === undefined) await new Promise<void>((resolve) => (release = resolve))
        return saved
      },
    }
    const holder = h.make({ ledger: stalling })
    const { token } = await holder.propose({ name: 'refund', input: {} })
    const stalled = holder.approve(token, 's1')
    while (release === undefined) await new Promise((resolve) => setTimeout(resolve, 1))
    h.advance(10_001)
    expect(await h.make().approve(token, 's1')).toMatchObject({ status: 'approved', attempts: 1 })
    release()
    expect((await stalled).status).toBe('approved')
    expect(h.runs).toHaveLength(1)
  })

  it('never stuck: a retried approve, list() and the sweep finish a record whose holder died', async () => {
    for (const recover of ['approve', 'list', 'sweep'] as const) {
      const h = harness()
      const first = h.make({ ledger: dyingLedger(h.ledger, 2) })
      const { token } = await first.propose({ name: 'refund', input: {} })
      await expect(first.approve(token, 's1')).rejects.toThrow('process died')
      const survivor = h.make()
      // while the claim is live, nobody takes it over
      expect((await survivor.approve(token, 's1')).status).toBe('approving')
      h.advance(10_000)
      if (recover === 'approve') expect((await survivor.approve(token, 's1')).status).toBe('approved')
      else if (recover === 'list') expect((await survivor.list()).map((r) => r.status)).toEqual(['approved'])
      else await survivor.sweepExpired()
      expect((await survivor.get(token))?.status).toBe('approved')
      expect(h.runs).toHaveLength(1)
    }
  })

  it('a presumed-dead holder that wakes after a reconcile cannot finish the record', async () => {
    const h = harness()
    let release: () => void = () => undefined
    const slow: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: (_input, context) => new Promise((resolve) => { h.runs.push({ input: {}, key: context.idempotencyKey }); release = () => resolve('late') }) }
    const first = h.make({ tools: [slow] })
    const { token } = await first.propose({ name: 'refund', input: {} })
    const approving = first.approve(token, 's1')
    await new Promise((resolve) => setImmediate(resolve))
    h.advance(10_000)
    const fast: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: (_input, context) => void h.runs.push({ input: {}, key: context.idempotencyKey }) }
    const reconciled = await h.make({ tools: [fast] }).reconcile(token)
    expect(reconciled).toMatchObject({ status: 'approved', attempts: 1 })
    release()
    const late = await approving
    expect(late.revision).toBe(reconciled?.revision)
    expect(new Set(h.runs.map((r) => r.key)).size).toBe(1)
  })
})

describe('with a capability policy', () => {
  it('checks at propose and again before execute: a revocation in between rejects it (decided by policy)', async () => {
    let context: TrustedActionContext | undefined = { sessionId: 's1', capabilities: ['billing:write'] }
    const policy = createCapabilityPolicy({ sessionId: 's1', requirements: { refund: ['billing:write'] }, getContext: async () => context })
    const h = harness({ policy })
    const confirmations = h.make()
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    context = { sessionId: 's1', capabilities: [] }
    expect(await confirmations.approve(token, 's1')).toMatchObject({ status: 'rejected', decidedBy: 'policy', reason: 'policy: missing-capability' })
    expect(h.runs).toEqual([])
    context = undefined
    await expect(confirmations.propose({ name: 'refund', input: {} })).rejects.toMatchObject({ code: 'ACTION_REFUSED' })
    expect(policy.getTrace().map((t) => `${t.phase}:${t.reason}`)).toEqual(['propose:allowed', 'execute:missing-capability', 'propose:missing-context'])
  })
})

describe('through a chat controller (AgentsKit’s proposeToolCall / approve / deny)', () => {
  it('proposes the requires_confirmation call, approve runs the tool once with the idempotency key, reject denies it', async () => {
    const keys: Array<string | undefined> = []
    const tool: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: (_args, context) => (keys.push(context.idempotencyKey), 'refunded') }
    const controller = createChatController({ adapter: scriptedAdapter(['Done.', 'Okay.']), tools: [tool] })
    const confirmations = createActionConfirmation({ sessionId: 's1', chat: controller })
    const first = await confirmations.propose({ name: 'refund', input: { amount: 3 } })
    expect(controller.getState().messages.at(-1)?.toolCalls?.[0]).toMatchObject({ id: first.toolCallId, status: 'requires_confirmation', args: { amount: 3 } })
    await Promise.all([confirmations.approve(first.token, 's1'), confirmations.approve(first.token, 's1')])
    expect(keys).toEqual([first.idempotencyKey])
    const call = controller.getState().messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === first.toolCallId)
    expect(call).toMatchObject({ status: 'complete', result: 'refunded' })
    const second = await confirmations.propose({ name: 'refund', input: { amount: 4 } })
    await confirmations.reject(second.token, 's1', 'too much')
    const denied = controller.getState().messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === second.toolCallId)
    expect(denied).toMatchObject({ status: 'error', error: 'Permission denied: too much' })
    expect(keys).toHaveLength(1)
  })

  it('binds the record to the id the controller gave the call, when it chose its own (AgentsKit’s controller does)', async () => {
    const approved: string[] = []
    const denied: string[] = []
    let n = 0
    // AgentsKit's `proposeToolCall` ignores the id it is passed and returns the call under its own
    const chat = {
      proposeToolCall: async (proposal: { name: string; args: Record<string, unknown> }) => ({ id: `call-${++n}`, name: proposal.name, args: proposal.args, status: 'requires_confirmation' as const }),
      approve: async (id: string) => void approved.push(id),
      deny: async (id: string) => void denied.push(id),
    }
    const confirmations = createActionConfirmation({ sessionId: 's1', chat })
    const first = await confirmations.propose({ name: 'refund', input: {} })
    expect(first.toolCallId).toBe('call-1')
    expect(confirmations.getByToolCall('call-1')?.token).toBe(first.token)
    await confirmations.approve(first.token, 's1')
    expect(approved).toEqual(['call-1'])
    const second = await confirmations.propose({ name: 'refund', input: {} })
    await confirmations.reject(second.token, 's1')
    expect(denied).toEqual(['call-2'])
  })

  it('refuses a proposal the controller returns under an id that is not an identifier, and keeps no record', async () => {
    const chat = {
      proposeToolCall: async () => ({ id: 'not an id', name: 'refund', args: {}, status: 'requires_confirmation' as const }),
      approve: async () => undefined,
      deny: async () => undefined,
    }
    const confirmations = createActionConfirmation({ sessionId: 's1', chat })
    await expect(confirmations.propose({ name: 'refund', input: {} })).rejects.toMatchObject({ code: 'ACTION_INVALID' })
    expect(await confirmations.list()).toEqual([])
  })
})

describe('an upstream failure leaves the record in progress and gives up its claim (a retry decides it, once)', () => {
  /** A controller whose `approve` and `deny` fail the first `failures` times each. */
  function flakyChat(failures: number) {
    const approved: Array<{ id: string; key: string | undefined }> = []
    let approveFailures = failures
    let denyFailures = failures
    const denied: string[] = []
    return {
      approved,
      denied,
      chat: {
        proposeToolCall: async (proposal: { id: string; name: string; args: Record<string, unknown> }) => ({ ...proposal, status: 'requires_confirmation' as const }),
        approve: async (id: string, options?: { idempotencyKey?: string }) => {
          if (approveFailures-- > 0) throw new Error('connection lost')
          approved.push({ id, key: options?.idempotencyKey })
        },
        deny: async (id: string) => {
          if (denyFailures-- > 0) throw new Error('connection lost')
          denied.push(id)
        },
      },
    }
  }

  it('a throwing execute: approve rejects with its error, the record stays executing without a claim, approving again executes with the same key', async () => {
    const h = harness()
    const upstream = flakyChat(1)
    const confirmations = h.make({ tools: undefined, chat: upstream.chat })
    const { token, idempotencyKey } = await confirmations.propose({ name: 'refund', input: {} })
    await expect(confirmations.approve(token, 's1')).rejects.toThrow('connection lost')
    const left = await h.ledger.loadConfirmation(token)
    expect(left).toMatchObject({ status: 'executing', decidedBy: 'alice' })
    expect(left?.claim).toBeUndefined()
    expect(left?.outcome).toBeUndefined()
    // no waiting for claimMs: the failed holder gave the record up
    expect(await confirmations.approve(token, 's1')).toMatchObject({ status: 'approved', attempts: 1, outcome: { status: 'complete' } })
    expect(upstream.approved).toEqual([{ id: expect.any(String), key: idempotencyKey }])
  })

  it('a retry is no new decision: a reject after a failed execute leaves it executing, and only an approve or reconcile finishes it', async () => {
    const h = harness()
    const upstream = flakyChat(1)
    const confirmations = h.make({ tools: undefined, chat: upstream.chat })
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    await expect(confirmations.approve(token, 's1')).rejects.toThrow('connection lost')
    // the reject finds a decision already taken and finishes that one (never a second decision)
    expect(await confirmations.reject(token, 's1', 'changed my mind')).toMatchObject({ status: 'approved' })
    expect(upstream.denied).toEqual([])
    expect(upstream.approved).toHaveLength(1)
  })

  it('a throwing withdrawal: reject rejects with its error, stays rejecting without a claim, rejecting again withdraws; never executes', async () => {
    const h = harness()
    const upstream = flakyChat(1)
    const confirmations = h.make({ tools: undefined, chat: upstream.chat })
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    await expect(confirmations.reject(token, 's1', 'no')).rejects.toThrow('connection lost')
    const left = await h.ledger.loadConfirmation(token)
    expect(left).toMatchObject({ status: 'rejecting', reason: 'no' })
    expect(left?.claim).toBeUndefined()
    // an approve now finishes the rejection it finds
    expect(await confirmations.approve(token, 's1')).toMatchObject({ status: 'rejected', reason: 'no' })
    expect(upstream.denied).toHaveLength(1)
    expect(upstream.approved).toEqual([])
  })

  it('a throwing expiry withdrawal: the approve after expiresAt rejects, the next one finishes the expiry', async () => {
    const h = harness()
    const upstream = flakyChat(1)
    const confirmations = h.make({ tools: undefined, chat: upstream.chat })
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    h.advance(60_000)
    await expect(confirmations.approve(token, 's1')).rejects.toThrow('connection lost')
    expect((await h.ledger.loadConfirmation(token))?.status).toBe('expiring')
    expect(await confirmations.approve(token, 's1')).toMatchObject({ status: 'expired', decidedBy: 'expiry' })
    expect(upstream.denied).toHaveLength(1)
    expect(upstream.approved).toEqual([])
  })

  it('a tool that throws still ran: its error is the outcome (the tools executor), and nothing runs again', async () => {
    const h = harness()
    let runs = 0
    const failing: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: () => { runs++; throw new Error('card declined') } }
    const confirmations = h.make({ tools: [failing] })
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    expect(await confirmations.approve(token, 's1')).toMatchObject({ status: 'approved', outcome: { status: 'error', error: 'Error: card declined' } })
    await confirmations.approve(token, 's1')
    expect(runs).toBe(1)
  })
})
