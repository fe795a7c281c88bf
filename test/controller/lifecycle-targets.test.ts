import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { getLifecycleTargets, planRegenerate, planRetry } from '../../src/controller/index.js'
import type { Message } from '../../src/contract/index.js'
import { manualStream, setup } from './harness.js'

const msg = (id: string, role: Message['role'], status: Message['status'] = 'complete'): Message => ({ id, role, content: id, status, createdAt: new Date(0) })
const none = { userId: undefined, assistantId: undefined, canRetry: false }

describe('getLifecycleTargets', () => {
  it('names the last complete turn, and nothing after a trailing user message or without a user', () => {
    const user = msg('user', 'user')
    const assistant = msg('assistant', 'assistant')
    expect(getLifecycleTargets([user, assistant])).toEqual({ userId: 'user', assistantId: 'assistant', canRetry: true })
    expect(getLifecycleTargets([user, assistant, msg('pending', 'user')])).toEqual(none)
    expect(getLifecycleTargets([assistant])).toEqual(none)
    expect(getLifecycleTargets([])).toEqual(none)
  })

  it('offers regenerate but not retry when a tool round-trip sits between the user and the answer', () => {
    const targets = getLifecycleTargets([msg('u', 'user'), msg('a1', 'assistant'), msg('t', 'tool'), msg('a2', 'assistant')])
    expect(targets).toEqual({ userId: 'u', assistantId: 'a2', canRetry: false })
  })

  it('offers nothing while an answer is still being written', () => {
    expect(getLifecycleTargets([msg('u', 'user'), msg('a', 'assistant', 'streaming')])).toEqual(none)
    expect(getLifecycleTargets([msg('u', 'user'), msg('a', 'assistant', 'pending')])).toEqual(none)
    expect(getLifecycleTargets([msg('u', 'user'), msg('a', 'assistant')], 'streaming')).toEqual(none)
    // a failed answer can be retried
    expect(getLifecycleTargets([msg('u', 'user'), msg('a', 'assistant', 'error')], 'error')).toMatchObject({ assistantId: 'a', canRetry: true })
  })

  it('never names a target the controller would refuse (property, against planRegenerate and planRetry)', () => {
    const role = fc.constantFrom<Message['role']>('user', 'assistant', 'tool', 'system')
    const status = fc.constantFrom<Message['status']>('complete', 'error', 'streaming', 'pending')
    const history = fc.array(fc.tuple(role, status), { maxLength: 8 }).map((list) => list.map(([r, s], index) => msg(`m${index}`, r, s)))
    fc.assert(
      fc.property(history, (messages) => {
        const targets = getLifecycleTargets(messages)
        const last = messages[messages.length - 1]
        const finished = last !== undefined && last.status !== 'streaming' && last.status !== 'pending'
        expect(targets.assistantId !== undefined).toBe(finished && planRegenerate(messages) !== undefined)
        expect(targets.userId !== undefined).toBe(targets.assistantId !== undefined)
        expect(targets.canRetry).toBe(targets.assistantId !== undefined && planRetry(messages) !== undefined)
        if (targets.userId !== undefined) expect(messages.find((m) => m.id === targets.userId)?.role).toBe('user')
      }),
    )
  })

  it('follows a real controller: none while streaming, the turn once it ends', async () => {
    const stream = manualStream()
    const { controller } = setup([stream.step])
    const turn = controller.send('q')
    const streaming = controller.getState()
    expect(getLifecycleTargets(streaming.messages, streaming.status)).toEqual(none)
    await stream.push({ type: 'text', content: 'a' })
    await stream.push({ type: 'done' })
    await turn
    const done = controller.getState()
    const [user, assistant] = done.messages
    expect(getLifecycleTargets(done.messages, done.status)).toEqual({ userId: user?.id, assistantId: assistant?.id, canRetry: true })
  })
})
