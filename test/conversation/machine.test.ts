import { describe, expect, it, vi } from 'vitest'
import { assignContext, compileMachine } from '../../src/conversation/machine.js'
import { defineChat, step } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

type Ctx = { n?: number; tag?: string }
const guard = vi.fn(({ context }: { context: Readonly<Ctx> }) => (context.n ?? 0) > 0)
const def = defineChat<Ctx>({
  id: 'm',
  chat: { adapter: scriptedAdapter(['x']) },
  conversation: {
    initial: 'a',
    context: { n: 0 },
    states: { a: { on: { go: 'b', stay: 'a', guarded: { target: 'b', guard } }, actions: ['x'] }, b: { final: true } },
    routes: [],
  },
})
const machine = compileMachine(def.conversation)

describe('machine.step (pure)', () => {
  it('a declared event moves to its target with transition and enter effects', () => {
    const [next, effects] = step(machine, machine.initial, 'go')
    expect(next).toEqual({ state: 'b', context: { n: 0 } })
    expect(effects).toEqual([{ type: 'transition', event: 'go', from: 'a', to: 'b' }, { type: 'enter', state: 'b', actions: [], final: true }])
    expect(machine.initial).toEqual({ state: 'a', context: { n: 0 } })
  })

  it('an undeclared event is refused and returns the same state object', () => {
    const [next, effects] = step(machine, machine.initial, 'nope')
    expect(next).toBe(machine.initial)
    expect(effects).toEqual([{ type: 'refuse', event: 'nope', reason: 'undeclared-event' }])
  })

  it('a guard sees the context before assign; false or a throw refuses', () => {
    expect(step(machine, machine.initial, 'guarded', { n: 5 })[1][0]).toMatchObject({ type: 'refuse', reason: 'guard-refused' })
    const [next] = step(machine, { state: 'a', context: { n: 1 } }, 'guarded', { tag: 't' })
    expect(next).toEqual({ state: 'b', context: { n: 1, tag: 't' } })
    guard.mockImplementationOnce(() => { throw new Error('x') })
    expect(step(machine, { state: 'a', context: { n: 1 } }, 'guarded')[1][0]).toMatchObject({ type: 'refuse', reason: 'guard-threw' })
  })

  it('a self-transition without assign keeps the state object; assign produces a frozen copy', () => {
    expect(step(machine, machine.initial, 'stay')[0]).toBe(machine.initial)
    const [next, effects] = step(machine, machine.initial, 'stay', { tag: 'x' })
    expect(next).not.toBe(machine.initial)
    expect(Object.isFrozen(next.context)).toBe(true)
    expect(effects[1]).toEqual({ type: 'assign', keys: ['tag'] })
  })

  it('a non-JSON assign is refused', () => {
    expect(step(machine, machine.initial, 'stay', { tag: new Date() as never })[1][0]).toMatchObject({ type: 'refuse', reason: 'assign-not-json' })
  })

  it('assignContext clones, clears undefined keys, and returns the same object for an empty patch', () => {
    const context = Object.freeze({ n: 1, tag: 'a' })
    expect(assignContext<Ctx>(context, {})).toBe(context)
    const patch = { tag: undefined, n: 2 }
    const next = assignContext<Ctx>(context, patch)
    expect(next).toEqual({ n: 2 })
    expect(next).not.toHaveProperty('tag')
    patch.n = 3
    expect(next?.n).toBe(2)
  })
})
