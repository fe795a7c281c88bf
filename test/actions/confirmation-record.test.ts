import { describe, expect, it } from 'vitest'
import type { ActionConfirmation, ConfirmationEvent } from '../../src/contract/action-confirmation.js'
import { createConfirmationRecord, freezeActionInput, MAX_INPUT_JSON_CHARS, reduceConfirmation } from '../../src/conversation/confirmation-record.js'
import { createConfirmationToken, TOKEN_PATTERN } from '../../src/conversation/confirmation-token.js'

const T0 = 1_000_000
const claim = (id = 'c1', until = T0 + 30_000) => ({ id, until })

const pending = (over: { ttlMs?: number; input?: Record<string, unknown> } = {}): ActionConfirmation =>
  createConfirmationRecord({ token: 'ct-token', sessionId: 's1', principal: 'alice', action: { name: 'refund', input: over.input ?? { amount: 5, lines: [{ sku: 'a' }] } }, toolCallId: 'call-1', idempotencyKey: 'key-1', ttlMs: over.ttlMs ?? 60_000 }, T0)

/** Applies events in order, each at its time. */
const run = (record: ActionConfirmation, steps: Array<[ConfirmationEvent, number]>): ActionConfirmation =>
  steps.reduce((current, [event, at]) => reduceConfirmation(current, event, at), record)

describe('createConfirmationRecord', () => {
  it('makes a pending, deep-frozen record at revision 1 whose input is a clone', () => {
    const input = { amount: 5, lines: [{ sku: 'a' }] }
    const record = createConfirmationRecord({ token: 't', sessionId: 's', action: { name: 'refund', input }, toolCallId: 'c', idempotencyKey: 'k', ttlMs: 10 }, T0)
    input.lines[0]!.sku = 'changed'
    expect(record).toMatchObject({ status: 'pending', revision: 1, attempts: 0, createdAt: T0, expiresAt: T0 + 10, action: { input: { lines: [{ sku: 'a' }] } } })
    expect(Object.isFrozen(record.action.input)).toBe(true)
    expect(Object.isFrozen((record.action.input.lines as object[])[0])).toBe(true)
    expect('principal' in record).toBe(false)
  })

  it('refuses input that is not plain JSON or is too large', () => {
    expect(() => freezeActionInput({ when: new Date() })).toThrow(/not a plain object/)
    expect(() => freezeActionInput({ f: () => 1 })).toThrow(/function/)
    expect(() => freezeActionInput({ n: Number.NaN })).toThrow(/finite/)
    expect(() => freezeActionInput([1])).toThrow(/plain JSON object/)
    expect(() => freezeActionInput({ s: 'x'.repeat(MAX_INPUT_JSON_CHARS) })).toThrow(/larger/)
  })
})

describe('reduceConfirmation: each transition', () => {
  it('approve: pending → approving with the claim, decidedAt and decidedBy', () => {
    const next = reduceConfirmation(pending(), { type: 'approve', by: 'alice', claim: claim() }, T0 + 5)
    expect(next).toMatchObject({ status: 'approving', claim: claim(), decidedAt: T0 + 5, decidedBy: 'alice', revision: 2 })
    expect(Object.isFrozen(next)).toBe(true)
  })

  it('approve or reject at or after expiresAt: pending → expiring (decided by expiry)', () => {
    for (const type of ['approve', 'reject'] as const) {
      const next = reduceConfirmation(pending(), { type, by: 'alice', claim: claim() }, T0 + 60_000)
      expect(next).toMatchObject({ status: 'expiring', decidedBy: 'expiry', reason: 'confirmation expired' })
    }
  })

  it('expire: only a pending record past its expiresAt', () => {
    const record = pending()
    expect(reduceConfirmation(record, { type: 'expire', claim: claim() }, T0 + 59_999)).toBe(record)
    expect(reduceConfirmation(record, { type: 'expire', claim: claim() }, T0 + 60_000).status).toBe('expiring')
  })

  it('reject: pending → rejecting with a bounded reason', () => {
    const next = reduceConfirmation(pending(), { type: 'reject', by: 'alice', reason: 'x'.repeat(2000), claim: claim() }, T0 + 1)
    expect(next.status).toBe('rejecting')
    expect(next.reason).toHaveLength(512)
  })

  it('execute → executed: approving → executing → approved, by the claim holder only', () => {
    const approving = reduceConfirmation(pending(), { type: 'approve', by: 'alice', claim: claim() }, T0)
    expect(reduceConfirmation(approving, { type: 'execute', claimId: 'other' }, T0)).toBe(approving)
    const executing = reduceConfirmation(approving, { type: 'execute', claimId: 'c1' }, T0)
    expect(executing.status).toBe('executing')
    expect(reduceConfirmation(executing, { type: 'executed', claimId: 'other', outcome: { status: 'complete' } }, T0)).toBe(executing)
    const approved = reduceConfirmation(executing, { type: 'executed', claimId: 'c1', outcome: { status: 'error', error: 'boom' } }, T0)
    expect(approved).toMatchObject({ status: 'approved', outcome: { status: 'error', error: 'boom' }, revision: 4 })
    expect('claim' in approved).toBe(false)
  })

  it('deny: approving → rejecting decided by the policy', () => {
    const approving = reduceConfirmation(pending(), { type: 'approve', by: 'alice', claim: claim() }, T0)
    expect(reduceConfirmation(approving, { type: 'deny', claimId: 'c1', by: 'policy', reason: 'policy: missing-capability' }, T0 + 1)).toMatchObject({ status: 'rejecting', decidedBy: 'policy', reason: 'policy: missing-capability' })
  })

  it('withdrawn: rejecting → rejected, expiring → expired', () => {
    const rejecting = reduceConfirmation(pending(), { type: 'reject', by: 'a', claim: claim() }, T0)
    expect(reduceConfirmation(rejecting, { type: 'withdrawn', claimId: 'c1' }, T0).status).toBe('rejected')
    const expiring = reduceConfirmation(pending(), { type: 'expire', claim: claim() }, T0 + 60_000)
    expect(reduceConfirmation(expiring, { type: 'withdrawn', claimId: 'c1' }, T0).status).toBe('expired')
  })

  it('release: approving → pending with the decision dropped', () => {
    const approving = reduceConfirmation(pending(), { type: 'approve', by: 'alice', claim: claim() }, T0)
    const released = reduceConfirmation(approving, { type: 'release', claimId: 'c1' }, T0)
    expect(released.status).toBe('pending')
    expect(['claim', 'decidedAt', 'decidedBy'].filter((key) => key in released)).toEqual([])
  })

  it('failed: the holder gives up its claim, the status (the decision) stays, and a reconcile takes it over at once', () => {
    const executing = run(pending(), [[{ type: 'approve', by: 'a', claim: claim('c1', T0 + 100) }, T0], [{ type: 'execute', claimId: 'c1' }, T0]])
    // only the holder gives it up
    expect(reduceConfirmation(executing, { type: 'failed', claimId: 'c2' }, T0 + 1)).toBe(executing)
    const failed = reduceConfirmation(executing, { type: 'failed', claimId: 'c1' }, T0 + 1)
    expect(failed).toMatchObject({ status: 'executing', decidedBy: 'a', attempts: 0, revision: executing.revision + 1 })
    expect('claim' in failed || 'outcome' in failed).toBe(false)
    // no claim left to run out: taken over before the old claim's `until`
    expect(reduceConfirmation(failed, { type: 'reconcile', claim: claim('c2') }, T0 + 2)).toMatchObject({ status: 'executing', claim: { id: 'c2' }, attempts: 1 })
    // a failed withdrawal keeps its decision too; a pending record has nothing to give up
    const rejecting = reduceConfirmation(pending(), { type: 'reject', by: 'a', reason: 'no', claim: claim() }, T0)
    expect(reduceConfirmation(rejecting, { type: 'failed', claimId: 'c1' }, T0)).toMatchObject({ status: 'rejecting', reason: 'no' })
    expect(reduceConfirmation(pending(), { type: 'failed', claimId: 'c1' }, T0)).toMatchObject({ status: 'pending', revision: 1 })
  })

  it('reconcile: a processing record whose claim ran out gets a new claim; a live claim is kept', () => {
    const executing = run(pending(), [[{ type: 'approve', by: 'a', claim: claim('c1', T0 + 100) }, T0], [{ type: 'execute', claimId: 'c1' }, T0]])
    expect(reduceConfirmation(executing, { type: 'reconcile', claim: claim('c2') }, T0 + 99)).toBe(executing)
    const taken = reduceConfirmation(executing, { type: 'reconcile', claim: claim('c2', T0 + 1000) }, T0 + 100)
    expect(taken).toMatchObject({ status: 'executing', claim: { id: 'c2' }, attempts: 1, idempotencyKey: 'key-1' })
    // the old holder can no longer finish it
    expect(reduceConfirmation(taken, { type: 'executed', claimId: 'c1', outcome: { status: 'complete' } }, T0 + 101)).toBe(taken)
    expect(reduceConfirmation(pending(), { type: 'reconcile', claim: claim() }, T0)).toMatchObject({ status: 'pending', revision: 1 })
  })

  it('final records take no event', () => {
    const approved = run(pending(), [[{ type: 'approve', by: 'a', claim: claim() }, T0], [{ type: 'execute', claimId: 'c1' }, T0], [{ type: 'executed', claimId: 'c1', outcome: { status: 'complete' } }, T0]])
    const events: ConfirmationEvent[] = [
      { type: 'approve', by: 'a', claim: claim('c9') }, { type: 'reject', by: 'a', claim: claim('c9') }, { type: 'expire', claim: claim('c9') },
      { type: 'execute', claimId: 'c1' }, { type: 'reconcile', claim: claim('c9') }, { type: 'withdrawn', claimId: 'c1' }, { type: 'release', claimId: 'c1' }, { type: 'failed', claimId: 'c1' },
    ]
    for (const event of events) expect(reduceConfirmation(approved, event, T0 + 10 ** 9)).toBe(approved)
  })

  it('is pure: the same arguments give equal records and the input record is untouched', () => {
    const record = pending()
    const event: ConfirmationEvent = { type: 'approve', by: 'a', claim: claim() }
    expect(reduceConfirmation(record, event, T0)).toEqual(reduceConfirmation(record, event, T0))
    expect(record.status).toBe('pending')
  })
})

describe('createConfirmationToken', () => {
  it('is 128 random bits, identifier-safe and never repeats', () => {
    const tokens = new Set(Array.from({ length: 2000 }, createConfirmationToken))
    expect(tokens.size).toBe(2000)
    for (const token of tokens) expect(token).toMatch(TOKEN_PATTERN)
  })
})
