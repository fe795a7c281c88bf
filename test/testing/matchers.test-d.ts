import { describe, expect, expectTypeOf, it } from 'vitest'
import '../../src/testing/vitest.js'
import type { TurnResult } from '../../src/testing/conversations/run-result.js'

declare const turn: TurnResult

describe('chatrail/testing/vitest types', () => {
  it('adds the matchers to expect(...) with their parameter types', () => {
    expectTypeOf(expect(turn).toRoute).parameters.toEqualTypeOf<[routeId: string]>()
    expectTypeOf(expect(turn).toTransition).parameters.toEqualTypeOf<[from: string, to: string]>()
    expectTypeOf(expect(turn).toMakeModelCalls).parameters.toEqualTypeOf<[count: number]>()
    expectTypeOf(expect(turn).not.toBeReplayed).returns.toBeVoid()
    // @ts-expect-error a trace kind is one of four words
    expect(turn).toBeKind('magic')
    // @ts-expect-error toHaveContext takes an object
    expect(turn).toHaveContext('tea')
  })

  it('adds them as asymmetric matchers, with the same types as on expect(...) (vitest\'s `Matchers` serves both)', () => {
    expectTypeOf(expect.toRoute).toBeFunction()
    expectTypeOf(expect.toRoute).toEqualTypeOf(expect(turn).toRoute)
    expectTypeOf(expect.not.toBeInState).parameters.toEqualTypeOf<[state: string]>()
  })
})
