import { describe, expect, it } from 'vitest'
import type { TrustedActionContext } from '../../src/contract/action-confirmation.js'
import type { ToolCall } from '../../src/contract/message.js'
import type { ToolAuthorizationContext } from '../../src/contract/tool.js'
import { createCapabilityPolicy, withActionPolicy } from '../../src/conversation/actions.js'
import { ChatrailConfigError } from '../../src/conversation/config-error.js'

const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `call-${name}`, name, args, status: 'requires_confirmation' })
const at = (phase: 'propose' | 'execute'): ToolAuthorizationContext => ({ messages: [], phase })

function policyWith(context: () => unknown, extra: { stateActions?: () => readonly string[] | undefined; sessionId?: string | (() => string) } = {}) {
  return createCapabilityPolicy({
    sessionId: extra.sessionId ?? 's1',
    requirements: { refund: ['billing:write'], lookup: [] },
    getContext: context as () => TrustedActionContext | undefined,
    now: () => Date.UTC(2026, 0, 1),
    ...(extra.stateActions ? { stateActions: extra.stateActions } : {}),
  })
}

const admin: TrustedActionContext = { sessionId: 's1', capabilities: ['billing:write'] }

describe('createCapabilityPolicy: each decision reason', () => {
  it('allowed', async () => {
    expect(await policyWith(() => admin).check('refund', 'propose')).toEqual({ allowed: true, reason: 'allowed' })
    expect(await policyWith(() => ({ sessionId: 's1', capabilities: [] })).check('lookup', 'propose')).toEqual({ allowed: true, reason: 'allowed' })
  })

  it('missing-context: getContext returned nothing (sync or async)', async () => {
    expect((await policyWith(() => undefined).check('refund', 'propose')).reason).toBe('missing-context')
    expect((await policyWith(async () => null).check('refund', 'propose')).reason).toBe('missing-context')
  })

  it('session-mismatch: a context for another session', async () => {
    expect((await policyWith(() => ({ ...admin, sessionId: 's2' })).check('refund', 'execute')).reason).toBe('session-mismatch')
  })

  it('action-unregistered: no requirement for it, or the current state does not offer it', async () => {
    expect((await policyWith(() => admin).check('delete-account', 'propose')).reason).toBe('action-unregistered')
    expect((await policyWith(() => admin).check('constructor', 'propose')).reason).toBe('action-unregistered')
    const gated = policyWith(() => admin, { stateActions: () => ['lookup'] })
    expect((await gated.check('refund', 'propose')).reason).toBe('action-unregistered')
    expect((await gated.check('lookup', 'propose')).reason).toBe('allowed')
  })

  it('missing-capability', async () => {
    expect((await policyWith(() => ({ sessionId: 's1', capabilities: ['billing:read'] })).check('refund', 'propose')).reason).toBe('missing-capability')
  })

  it('policy-failure: getContext threw or returned a malformed context', async () => {
    expect((await policyWith(() => { throw new Error('db down') }).check('refund', 'propose')).reason).toBe('policy-failure')
    expect((await policyWith(async () => { throw new Error('db down') }).check('refund', 'propose')).reason).toBe('policy-failure')
    expect((await policyWith(() => ({ sessionId: 's1', capabilities: 'billing:write' })).check('refund', 'propose')).reason).toBe('policy-failure')
  })

  it('composed-policy-denied, and policy-failure when the composed authorizer throws', async () => {
    const policy = policyWith(() => admin)
    expect(await policy.compose(() => ({ allowed: false, reason: 'nope' }))(call('refund'), at('propose'))).toMatchObject({ allowed: false, reason: expect.stringContaining('composed-policy-denied') })
    expect(await policy.compose(() => { throw new Error('x') })(call('refund'), at('propose'))).toMatchObject({ allowed: false, reason: expect.stringContaining('policy-failure') })
    expect(await policy.compose(async () => ({ allowed: true }))(call('refund'), at('propose'))).toEqual({ allowed: true })
    expect(policy.getTrace().map((t) => t.reason)).toEqual(['composed-policy-denied', 'policy-failure', 'allowed'])
  })
})

describe('createCapabilityPolicy: what it trusts', () => {
  it('ignores capabilities in the tool call arguments', async () => {
    const policy = policyWith(() => ({ sessionId: 's1', capabilities: [] }))
    const decision = await policy.authorizeToolCall(call('refund', { capabilities: ['billing:write'], sessionId: 's1' }), at('propose'))
    expect(decision.allowed).toBe(false)
  })

  it('re-reads the context at every check: a revocation between propose and execute blocks the execute', async () => {
    let context: TrustedActionContext = admin
    const policy = policyWith(() => context)
    expect((await policy.authorizeToolCall(call('refund'), at('propose'))).allowed).toBe(true)
    context = { sessionId: 's1', capabilities: [] }
    expect((await policy.authorizeToolCall(call('refund'), at('execute'))).allowed).toBe(false)
    expect(policy.getTrace().map((t) => [t.phase, t.decision, t.reason])).toEqual([['propose', 'allow', 'allowed'], ['execute', 'deny', 'missing-capability']])
  })

  it('a revocation during an async composed check blocks the call', async () => {
    let context: TrustedActionContext = admin
    const policy = policyWith(() => context)
    const decision = await policy.compose(async () => {
      context = { sessionId: 's1', capabilities: [] }
      return { allowed: true }
    })(call('refund'), at('execute'))
    expect(decision.allowed).toBe(false)
    expect(policy.getTrace().at(-1)?.reason).toBe('missing-capability')
  })

  it('reads the session id at each check when given a function', async () => {
    let id = 's1'
    const policy = policyWith(() => admin, { sessionId: () => id })
    expect((await policy.check('refund', 'propose')).allowed).toBe(true)
    id = 's2'
    expect((await policy.check('refund', 'propose')).reason).toBe('session-mismatch')
  })

  it('keeps a bounded trace of names and reasons, never arguments or context', async () => {
    const policy = createCapabilityPolicy({ sessionId: 's1', requirements: { refund: ['billing:write'] }, getContext: () => ({ sessionId: 's1', capabilities: ['billing:write', 'secret-capability'] }), maxTrace: 3 })
    for (let i = 0; i < 10; i++) await policy.authorizeToolCall(call('refund', { card: '4242-4242' }), at('propose'))
    const trace = policy.getTrace()
    expect(trace).toHaveLength(3)
    expect(trace.map((t) => t.id)).toEqual(['policy-8', 'policy-9', 'policy-10'])
    expect(JSON.stringify(trace)).not.toMatch(/4242|secret-capability/)
    expect(trace[0]).toMatchObject({ action: 'refund', toolCallId: 'call-refund', requiredCapabilities: ['billing:write'] })
  })

  it('refuses invalid construction with a config error naming the field', () => {
    expect(() => createCapabilityPolicy({ sessionId: 's', requirements: { refund: 'billing' as unknown as string[] }, getContext: () => undefined })).toThrow(ChatrailConfigError)
    expect(() => createCapabilityPolicy({ sessionId: 's', requirements: {}, getContext: 'x' as unknown as () => undefined })).toThrow(/getContext/)
  })

  it('refuses an empty or non-string session id, which a context for no session would match', () => {
    for (const sessionId of ['', 'two words', 42 as unknown as string, undefined as unknown as string]) {
      const error = (() => {
        try {
          createCapabilityPolicy({ sessionId, requirements: {}, getContext: () => undefined })
        } catch (thrown) {
          return thrown
        }
        return undefined
      })()
      expect(ChatrailConfigError.isInstance(error) && error.path).toEqual(['sessionId'])
    }
    expect(() => createCapabilityPolicy({ sessionId: () => 's', requirements: {}, getContext: () => undefined })).not.toThrow()
  })

  it('refuses a capability name with whitespace (a typo for two capabilities, or a sentence)', () => {
    for (const capability of ['invalid capability', ' billing:write', 'billing:write\n', 'x'.repeat(129)]) {
      expect(() => createCapabilityPolicy({ sessionId: 's', requirements: { refund: [capability] }, getContext: () => undefined })).toThrow(/capabilities for action "refund"/)
    }
    expect(() => createCapabilityPolicy({ sessionId: 's', requirements: { refund: ['billing:write', 'orders/refund', 'admin'] }, getContext: () => undefined })).not.toThrow()
  })
})

describe('withActionPolicy (AgentsKit Chat’s name)', () => {
  it('puts the policy in front of the config’s own authorizer, which is asked only when the policy allows', async () => {
    const asked: string[] = []
    const config = { authorizeToolCall: (toolCall: ToolCall) => (asked.push(toolCall.name), { allowed: toolCall.name !== 'lookup' }) }
    const guarded = withActionPolicy(config, policyWith(() => ({ sessionId: 's1', capabilities: [] })))
    expect(await guarded.authorizeToolCall(call('refund'), at('propose'))).toMatchObject({ allowed: false })
    expect(asked).toEqual([])
    expect(await guarded.authorizeToolCall(call('lookup'), at('propose'))).toMatchObject({ allowed: false, reason: expect.stringContaining('composed-policy-denied') })
    expect(asked).toEqual(['lookup'])
  })
})
