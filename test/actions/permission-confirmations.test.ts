import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AgentPermissionVerdict } from '../../src/conversation/actions.js'
import { permissionConfirmations } from '../../src/conversation/actions.js'
import { memoryConfirmationLedger } from '../../src/conversation/confirmation-ledger.js'
import { permissionRequestsThrough } from '../../src/agents/claude-code/index.js'

/**
 * A coding agent's permission request as a confirmation record: the record's executor sends the
 * allow, a rejection or expiry the deny; the agent's own dialog answer (`answer`) and an approval
 * of the record (a card, the server, another tab) are one decision, and the agent hears one answer.
 * The real Claude Code CLI behind it: test/agents/adapters/claude-code/claude-code-permission-records.test.ts.
 */

const T0 = Date.UTC(2031, 0, 1)

function gate(over: { ttlMs?: number } = {}) {
  let time = T0
  const ledger = memoryConfirmationLedger()
  const permissions = permissionConfirmations({ sessionId: 'agent-1', ledger, now: () => time, ttlMs: over.ttlMs ?? 60_000 })
  return { permissions, ledger, advance: (ms: number) => void (time += ms) }
}

const bash = { requestId: 'toolu_01', toolName: 'Bash', input: { command: 'rm -rf build' } }

describe('permissionConfirmations', () => {
  it('a request waits as a pending record; approving it (twice, at once) allows it once', async () => {
    const { permissions } = gate()
    const verdict = permissions.ask(bash)
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [record] = await permissions.confirmations.list()
    expect(record).toMatchObject({ status: 'pending', toolCallId: 'toolu_01', action: { name: 'Bash', input: { command: 'rm -rf build' } } })
    const decided = await Promise.all([permissions.confirmations.approve(record!.token, 'agent-1'), permissions.confirmations.approve(record!.token, 'agent-1')])
    expect(decided.map((r) => r.status)).toEqual(['approved', 'approved'])
    expect(await verdict).toEqual({ allowed: true })
  })

  it('a rejection or an expiry denies it, with the reason; approving afterwards allows nothing', async () => {
    const { permissions, advance } = gate()
    const rejected = permissions.ask(bash)
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [first] = await permissions.confirmations.list()
    await permissions.confirmations.reject(first!.token, 'agent-1', 'not in this repo')
    expect(await rejected).toEqual({ allowed: false, reason: 'not in this repo' })
    expect((await permissions.confirmations.approve(first!.token, 'agent-1')).status).toBe('rejected')

    const expiring = permissions.ask({ ...bash, requestId: 'toolu_02' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    advance(60_000)
    expect(await permissions.confirmations.sweepExpired()).toHaveLength(1)
    expect(await expiring).toEqual({ allowed: false, reason: 'confirmation expired' })
  })

  it('the agent\'s own dialog answer decides the record: the same decision, never a second one', async () => {
    const { permissions } = gate()
    const verdict = permissions.ask(bash)
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [record] = await permissions.confirmations.list()
    // the dialog says deny, a card says approve, at once: the first compare-and-swap wins, one answer
    const [fromDialog, fromCard] = await Promise.all([permissions.answer('toolu_01', false, 'agent-1', 'no'), permissions.confirmations.approve(record!.token, 'agent-1')])
    expect(fromDialog?.status).toBe(fromCard.status)
    const heard = await verdict
    expect(heard.allowed).toBe(fromCard.status === 'approved')
    expect(permissions.answer('toolu_unknown', true, 'agent-1')).toBeUndefined()
  })

  it('a request whose record cannot be made is denied at once, with why', async () => {
    const { permissions } = gate()
    expect(await permissions.ask({ requestId: 'not an id', toolName: 'Bash', input: {} })).toMatchObject({ allowed: false, reason: expect.stringContaining('could not be asked for') })
  })

  it('an approval after the agent stopped waiting allows nothing: the record says so', async () => {
    const { permissions } = gate()
    const verdict = permissions.ask(bash)
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [record] = await permissions.confirmations.list()
    permissions.dispose()
    expect(await verdict).toEqual({ allowed: false, reason: 'The turn ended before the permission was decided.' })
    expect(await permissions.confirmations.approve(record!.token, 'agent-1')).toMatchObject({ status: 'approved', outcome: { status: 'error', error: 'The agent no longer waits for this permission; nothing was allowed.' } })
  })

  it('as Claude Code\'s onPermissionRequest: allow with the input as asked, or deny with the reason', async () => {
    const { permissions } = gate()
    const onPermissionRequest = permissionRequestsThrough(permissions)
    const asking = onPermissionRequest({ toolName: 'Bash', toolUseId: 'toolu_09', input: { command: 'ls' } })
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [record] = await permissions.confirmations.list()
    await permissions.confirmations.approve(record!.token, 'agent-1')
    expect(await asking).toEqual({ behavior: 'allow', updatedInput: { command: 'ls' } })
    const denied = onPermissionRequest({ toolName: 'Bash', toolUseId: 'toolu_10', input: { command: 'ls' } })
    await new Promise((resolve) => setTimeout(resolve, 0))
    await permissions.answer('toolu_10', false, 'agent-1', 'read-only today')
    expect(await denied).toEqual({ behavior: 'deny', message: 'read-only today' })
  })
})

type Door = { kind: 'card'; approve: boolean } | { kind: 'dialog'; approve: boolean } | { kind: 'expire' } | { kind: 'sweep' }

describe('permissionConfirmations: no interleaving of the doors answers the agent twice, or allows what was refused', () => {
  it('holds for card / dialog / expiry / sweep interleavings', async () => {
    const door: fc.Arbitrary<Door> = fc.oneof(
      fc.record({ kind: fc.constant('card' as const), approve: fc.boolean() }),
      fc.record({ kind: fc.constant('dialog' as const), approve: fc.boolean() }),
      fc.constant({ kind: 'expire' as const }),
      fc.constant({ kind: 'sweep' as const }),
    )
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(door, { minLength: 1, maxLength: 8 }), async (s, doors) => {
        let time = T0
        const shared = memoryConfirmationLedger()
        // every ledger call is a point where the scheduler may switch
        const ledger = {
          saveConfirmation: (record: Parameters<typeof shared.saveConfirmation>[0], expected: number) => s.schedule(Promise.resolve(), 'save').then(() => shared.saveConfirmation(record, expected)),
          loadConfirmation: (token: string) => s.schedule(Promise.resolve(), 'load').then(() => shared.loadConfirmation(token)),
          listConfirmations: (sessionId: string) => s.schedule(Promise.resolve(), 'list').then(() => shared.listConfirmations(sessionId)),
        }
        const permissions = permissionConfirmations({ sessionId: 'agent-1', ledger, now: () => time, ttlMs: 30_000 })
        const heard: AgentPermissionVerdict[] = []
        const asked = permissions.ask(bash).then((verdict) => void heard.push(verdict))
        await s.waitFor(new Promise<void>((resolve) => {
          const poll = (): void => void shared.listConfirmations('agent-1').then((records) => (records.length > 0 ? resolve() : setTimeout(poll, 0)))
          poll()
        }))
        const [proposed] = await shared.listConfirmations('agent-1')
        const token = proposed!.token
        const running = doors.map((d) =>
          s.schedule(Promise.resolve(), d.kind).then(async () => {
            if (d.kind === 'expire') time += 30_000
            else if (d.kind === 'sweep') await permissions.confirmations.sweepExpired()
            else if (d.kind === 'card') await (d.approve ? permissions.confirmations.approve(token, 'agent-1') : permissions.confirmations.reject(token, 'agent-1', 'card says no'))
            else await permissions.answer('toolu_01', d.approve, 'agent-1', 'dialog says no')
          }),
        )
        await s.waitFor(Promise.all(running))
        const final = await shared.loadConfirmation(token)
        // at most one answer reached the agent, and it is what the record says
        expect(heard.length).toBeLessThanOrEqual(1)
        if (final?.status === 'approved') expect(heard).toEqual([{ allowed: true }])
        else if (final?.status === 'rejected' || final?.status === 'expired') expect(heard).toEqual([expect.objectContaining({ allowed: false })])
        else expect(heard).toEqual([])
        // an approval decided at or after expiry never allows
        if (heard[0]?.allowed) expect(final!.decidedAt).toBeLessThan(final!.expiresAt)
        permissions.dispose()
        await asked
      }),
      { numRuns: 200 },
    )
  })
})
