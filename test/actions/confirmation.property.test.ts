import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ActionConfirmation, ConfirmationLedger, TrustedActionContext } from '../../src/contract/action-confirmation.js'
import type { ActionConfirmationCoordinator } from '../../src/conversation/action-confirmation.js'
import type { ActionExecutor } from '../../src/conversation/action-executor.js'
import { createActionConfirmation, createCapabilityPolicy } from '../../src/conversation/actions.js'
import { memoryConfirmationLedger } from '../../src/conversation/confirmation-ledger.js'

/**
 * Invariant 11 under any interleaving: two instances (coordinators on one ledger) and their
 * restarts propose, approve, reject, expire, sweep, crash and reconcile; a capability is revoked
 * and granted; approvals come from this session and from a foreign one; the upstream fails
 * transiently (before acting, or after acting without saying so) in execute and in a withdrawal.
 * Every ledger read and write and every execute is a point where fast-check's scheduler may switch tasks.
 */

type Op =
  | { kind: 'approve'; who: 0 | 1; token: 0 | 1; foreign: boolean }
  | { kind: 'reject'; who: 0 | 1; token: 0 | 1 }
  | { kind: 'advance'; ms: number }
  | { kind: 'sweep'; who: 0 | 1 }
  | { kind: 'crash'; who: 0 | 1 }
  /** The process dies inside its next execute, after the action ran (the record stays `executing`). */
  | { kind: 'crash-in-execute'; who: 0 | 1 }
  | { kind: 'reconcile'; who: 0 | 1; token: 0 | 1 }
  /** The process's next execute or withdrawal throws once: before acting, or after acting (the caller cannot tell). */
  | { kind: 'upstream-fails'; who: 0 | 1; when: 'before' | 'after' }
  | { kind: 'revoke' }
  | { kind: 'grant' }

const who = fc.constantFrom<0 | 1>(0, 1)
const token = fc.constantFrom<0 | 1>(0, 1)
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('approve' as const), who, token, foreign: fc.boolean() }),
  fc.record({ kind: fc.constant('reject' as const), who, token }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 5_000, 20_000, 40_000) }),
  fc.record({ kind: fc.constant('sweep' as const), who }),
  fc.record({ kind: fc.constant('crash' as const), who }),
  fc.record({ kind: fc.constant('crash-in-execute' as const), who }),
  fc.record({ kind: fc.constant('reconcile' as const), who, token }),
  fc.record({ kind: fc.constant('upstream-fails' as const), who, when: fc.constantFrom<'before' | 'after'>('before', 'after') }),
  fc.constant({ kind: 'revoke' as const }),
  fc.constant({ kind: 'grant' as const }),
)

describe('action confirmation: no interleaving executes twice, or executes what it must not', () => {
  it('holds for propose / approve / reject / expire / crash / reconcile / revoke interleavings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(op, { minLength: 1, maxLength: 14 }), fc.boolean(), async (s, ops, withPolicy) => {
        let time = 0
        let ids = 0
        const shared = memoryConfirmationLedger()
        const calls: Array<{ token: string; key: string | undefined; attempt: number }> = []
        let context: TrustedActionContext = { sessionId: 's1', capabilities: ['pay'] }
        const policy = withPolicy ? createCapabilityPolicy({ sessionId: 's1', requirements: { pay: ['pay'] }, getContext: () => s.schedule(Promise.resolve(context), 'context'), now: () => time }) : undefined
        const executeChecks: Array<{ toolCallId: string | undefined; allowed: boolean }> = []

        /** One process: its ledger calls go through the scheduler; after a crash they all fail. */
        const instance = (): { coordinator: ActionConfirmationCoordinator; kill: () => void; dieInExecute: () => void; failUpstream: (when: 'before' | 'after') => void } => {
          let dead = false
          let dying = false
          let failing: 'before' | 'after' | undefined
          /** The armed upstream failure, once. */
          const takeFailure = (): 'before' | 'after' | undefined => {
            const armed = failing
            failing = undefined
            return armed
          }
          const guard = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
            await s.schedule(Promise.resolve(), label)
            if (dead) throw new Error('process died')
            return work()
          }
          const ledger: ConfirmationLedger = {
            saveConfirmation: (record, expected) => guard('save', () => shared.saveConfirmation(record, expected)),
            loadConfirmation: (t) => guard('load', () => shared.loadConfirmation(t)),
            listConfirmations: (sid, o) => guard('list', () => shared.listConfirmations(sid, o)),
          }
          // an executor's throw is an upstream failure (a tool's own throw would be its outcome)
          const executor: ActionExecutor = {
            execute: async (record, execution) => {
              if (dead) throw new Error('process died')
              const failure = takeFailure()
              if (failure === 'before') throw new Error('upstream unavailable')
              calls.push({ token: record.toolCallId, key: execution.idempotencyKey, attempt: execution.attempt })
              await s.schedule(Promise.resolve(), 'execute')
              if (dying) {
                dead = true
                throw new Error('process died')
              }
              if (failure === 'after') throw new Error('upstream timed out')
            },
            withdraw: async () => {
              if (dead) throw new Error('process died')
              if (takeFailure() !== undefined) throw new Error('upstream unavailable')
            },
          }
          const coordinator = createActionConfirmation({
            sessionId: 's1', executor, ledger, now: () => time, createId: () => `id${++ids}`, ttlMs: 30_000, claimMs: 10_000,
            ...(policy ? { policy: { ...policy, check: async (action, phase, toolCallId) => {
              const decision = await policy.check(action, phase, toolCallId)
              if (phase === 'execute') executeChecks.push({ toolCallId, allowed: decision.allowed })
              return decision
            } } } : {}),
          })
          return { coordinator, kill: () => void (dead = true), dieInExecute: () => void (dying = true), failUpstream: (when) => void (failing = when) }
        }

        const processes = [instance(), instance()]
        // two proposals, made before the interleaved part (one by each instance)
        const proposing = Promise.all([processes[0]!.coordinator.propose({ name: 'pay', input: { n: 0 } }, { toolCallId: 'call-0' }), processes[1]!.coordinator.propose({ name: 'pay', input: { n: 1 } }, { toolCallId: 'call-1' })])
        await s.waitFor(proposing)
        const proposed: ActionConfirmation[] = await proposing
        const foreign = createActionConfirmation({ sessionId: 's2', executor: { execute: async () => { throw new Error('foreign executor must never run') } }, ledger: shared, now: () => time })
        const foreignApproved = new Set<string>()

        const running: Promise<unknown>[] = []
        // the order in which the interleaved operations actually began (the scheduler picks it)
        let began = 0
        let revokedAt: number | undefined
        const approvesStarted: number[] = []
        for (const o of ops) {
          const task = s.schedule(Promise.resolve(), o.kind).then(async () => {
            const p = 'who' in o ? processes[o.who]! : undefined
            const t = o.kind === 'approve' || o.kind === 'reject' || o.kind === 'reconcile' ? proposed[o.token]!.token : ''
            const at = ++began
            switch (o.kind) {
              case 'approve':
                if (!o.foreign) approvesStarted.push(at)
                if (o.foreign) {
                  foreignApproved.add(t)
                  await foreign.approve(t, 's2')
                } else await p!.coordinator.approve(t, 's1')
                return
              case 'reject':
                return p!.coordinator.reject(t, 's1', 'no')
              case 'advance':
                time += o.ms
                return
              case 'sweep':
                return p!.coordinator.sweepExpired()
              case 'crash':
                p!.kill()
                processes[o.who] = instance()
                return
              case 'crash-in-execute':
                p!.dieInExecute()
                return
              case 'reconcile':
                return p!.coordinator.reconcile(t)
              case 'upstream-fails':
                p!.failUpstream(o.when)
                return
              case 'revoke':
                revokedAt ??= at
                context = { sessionId: 's1', capabilities: [] }
                return
              case 'grant':
                context = { sessionId: 's1', capabilities: ['pay'] }
                return
            }
          })
          // a dead process's failures and a foreign session's refusals are expected outcomes
          running.push(task.catch(() => undefined))
        }
        await s.waitFor(Promise.all(running))
        // recovery afterwards: time passes beyond every claim and a fresh instance reconciles everything
        time += 100_000
        const recovery = instance()
        for (const record of proposed) {
          const done = recovery.coordinator.reconcile(record.token).catch(() => undefined)
          await s.waitFor(done)
        }

        // a crash or an upstream failure after acting may leave an execution the record does not know of: it is retried with the same key
        const crashed = ops.some((o) => o.kind === 'crash' || o.kind === 'crash-in-execute' || (o.kind === 'upstream-fails' && o.when === 'after'))
        for (const record of proposed) {
          const final = await shared.loadConfirmation(record.token)
          const mine = calls.filter((c) => c.token === record.toolCallId)
          // never twice with a different key: every attempt carries the record's one key
          expect(new Set(mine.map((c) => c.key))).toEqual(new Set(mine.length === 0 ? [] : [record.idempotencyKey]))
          // without a crash (or an upstream that acted and failed), at most one execute call at all
          if (!crashed) expect(mine.length).toBeLessThanOrEqual(1)
          // attempts count up: a retry is a takeover, never a second first attempt
          expect(mine.map((c) => c.attempt)).toEqual([...new Set(mine.map((c) => c.attempt))])
          // rejected, expired (and revoked: rejected by policy) records never executed
          if (final?.status === 'rejected' || final?.status === 'expired') expect(mine).toEqual([])
          // an approved record executed; after recovery nothing is left mid-way
          if (final?.status === 'approved') {
            expect(mine.length).toBeGreaterThan(0)
            // decided before it expired: an approval after expiresAt never executes
            expect(final.decidedAt).toBeLessThan(final.expiresAt)
          }
          expect(['pending', 'approved', 'rejected', 'expired']).toContain(final?.status)
          // a foreign session's approve alone never executes
          const ownApproves = ops.some((o) => o.kind === 'approve' && !o.foreign && proposed[o.token]!.token === record.token)
          if (!ownApproves) expect(mine).toEqual([])
          void foreignApproved
        }
        // every execute call followed an allowing execute-phase check for its call (revoked: never runs)
        if (policy) {
          for (const call of calls) expect(executeChecks.some((c) => c.toolCallId === call.token && c.allowed)).toBe(true)
          // revoked before any approval began, never granted again: nothing runs
          const revoked = revokedAt
          if (!ops.some((o) => o.kind === 'grant') && revoked !== undefined && approvesStarted.every((at) => at > revoked)) expect(calls).toEqual([])
        }
      }),
      { numRuns: 300 },
    )
  })
})
