import { beforeAll, describe, expect, it } from 'vitest'
import '../../src/testing/vitest.js'
import type { ConversationRun } from '../../src/testing/conversations/run-result.js'
import { chatrailMatchers } from '../../src/testing/matchers.js'
import { runConversation } from '../../src/testing/conversations/run-conversation.js'
import { shopBot } from './fixtures/shop-bot.js'
import type { ShopContext } from './fixtures/shop-bot.js'

let run: ConversationRun<ShopContext>

beforeAll(async () => {
  run = await runConversation(shopBot, [{ user: '/start' }, { user: 'hi there' }, { user: 'order tea' }, { retry: true }])
})

const turn = (number: number) => {
  const result = run.turns[number - 1]
  if (result === undefined) throw new Error(`no turn ${number}`)
  return result
}

/** The message of the assertion error `assertion` throws. */
function failureOf(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  throw new Error('expected the assertion to fail')
}

describe('chatrail matchers', () => {
  it('toRoute passes on the answering route and fails naming the route that answered (or why none did), with the trace', () => {
    expect(turn(1)).toRoute('start')
    expect(turn(2)).not.toRoute('start')
    expect(failureOf(() => expect(turn(1)).toRoute('help'))).toBe(
      'expected turn 1 (user "/start") to be answered by route "help", but route "start" answered it\n\ntrace:\n  deterministic ok · route start · event START · idle → menu',
    )
    expect(failureOf(() => expect(turn(2)).toRoute('help'))).toBe(
      [
        'expected turn 2 (user "hi there") to be answered by route "help", but no route answered it (agentic)',
        '',
        'no route matched: "hi there" in state "menu"; the agent answers',
        '  · start    event     "menu" does not declare its event "START"',
        '  · help     no-match  the command is "/help"',
        '  · order    no-match  the pattern /^order (?<item>\\w+)$/i does not match',
        '  · confirm  event     "menu" does not declare its event "CONFIRM"',
        '  · cancel   event     "menu" does not declare its event "CANCEL"',
        '',
        'trace:',
        '  agentic ok · menu → menu',
      ].join('\n'),
    )
    expect(failureOf(() => expect(turn(1)).not.toRoute('start'))).toBe(
      'expected turn 1 (user "/start") not to be answered by route "start", but it was\n\ntrace:\n  deterministic ok · route start · event START · idle → menu',
    )
  })

  it('toBeKind', () => {
    expect(turn(1)).toBeKind('deterministic')
    expect(turn(2)).toBeKind('agentic')
    expect(failureOf(() => expect(turn(2)).toBeKind('deterministic'))).toBe('expected turn 2 (user "hi there") to be deterministic, but it was agentic\n\ntrace:\n  agentic ok · menu → menu')
  })

  it('toTransition shows which end differs', () => {
    expect(turn(3)).toTransition('menu', 'ordering')
    expect(failureOf(() => expect(turn(3)).toTransition('menu', 'done'))).toBe(
      'expected turn 3 (user "order tea") to go menu → done, but it went menu → ordering\n  to:   expected "done", received "ordering"\n\ntrace:\n  deterministic ok · route order · event ORDER · menu → ordering',
    )
  })

  it('toBeInState reads a turn, a run, a session or a snapshot', () => {
    expect(turn(1)).toBeInState('menu')
    expect(run).toBeInState('ordering')
    expect(run.session).toBeInState('ordering')
    expect(run.snapshot).toBeInState('ordering')
    expect(failureOf(() => expect(turn(1)).toBeInState('done'))).toBe(
      'expected after turn 1 (user "/start"), the session to be in state "done", but it is in "menu"\n\ntrace:\n  deterministic ok · route start · event START · idle → menu',
    )
  })

  it('toHaveContext matches partially and prints each differing key', () => {
    expect(turn(3)).toHaveContext({ item: 'tea' })
    expect(run).toHaveContext({ item: 'tea', orders: 0 })
    expect(failureOf(() => expect(turn(3)).toHaveContext({ item: 'jam', orders: 0, table: 4 }))).toBe(
      [
        'expected after turn 3 (user "order tea"), the session to have context {"item":"jam","orders":0,"table":4}, but it differs:',
        '  item: expected "jam", received "tea"',
        '  table: expected 4, received (missing)',
        '',
        'context: {"item":"tea","orders":0}',
        '',
        'trace:',
        '  deterministic ok · route order · event ORDER · menu → ordering',
      ].join('\n'),
    )
  })

  it('toMakeModelCalls counts per turn, per run and per adapter', () => {
    expect(turn(1)).toMakeModelCalls(0)
    expect(turn(2)).toMakeModelCalls(1)
    expect(run).toMakeModelCalls(1)
    expect({ calls: [1, 2] }).toMakeModelCalls(2)
    expect(failureOf(() => expect(turn(2)).toMakeModelCalls(0))).toBe('expected turn 2 (user "hi there") to make 0 model calls, but it made 1\n\ntrace:\n  agentic ok · menu → menu')
  })

  it('toBeReplayed', () => {
    expect(turn(4)).toBeReplayed()
    expect(turn(3)).not.toBeReplayed()
    expect(failureOf(() => expect(turn(3)).toBeReplayed())).toBe(
      'expected turn 3 (user "order tea") to be replayed from the decision cache, but it was decided afresh (deterministic ok · route order · event ORDER · menu → ordering)\n\ntrace:\n  deterministic ok · route order · event ORDER · menu → ordering',
    )
    expect(failureOf(() => expect(turn(4)).not.toBeReplayed())).toBe(
      'expected turn 4 (retry) to be decided afresh, but it was replayed from the decision cache\n\ntrace:\n  deterministic ok · route order · event ORDER · menu → ordering · replayed',
    )
  })

  it('reads a bare trace and a run (as its last turn), and names a subject it cannot read', () => {
    expect(turn(1).trace).toRoute('start')
    expect(run).toRoute('order')
    expect(failureOf(() => expect(42).toRoute('start'))).toBe('expected a TurnTrace, a turn of runConversation, a ConversationRun or a ChatSession; received number 42')
    expect(failureOf(() => expect({ state: 1 }).toBeInState('x'))).toBe(
      'expected a turn of runConversation, a ConversationRun, a ChatSession or a SessionSnapshot; received an object with keys state',
    )
  })

  it('works as asymmetric matchers', () => {
    expect(run.turns).toContainEqual(expect.toRoute('order'))
    expect(run.turns).not.toContainEqual(expect.toRoute('help'))
  })

  it('is usable without vitest: plain functions honouring isNot', () => {
    const passing = chatrailMatchers.toRoute.call({}, turn(1), 'start')
    expect(passing.pass).toBe(true)
    expect(chatrailMatchers.toRoute.call({ isNot: true }, turn(1), 'start').message()).toMatch(/^expected turn 1 \(user "\/start"\) not to be answered by route "start"/)
    const failing = chatrailMatchers.toBeKind.call({}, turn(1), 'agentic')
    expect([failing.pass, failing.actual, failing.expected]).toEqual([false, 'deterministic', 'agentic'])
    expect(Object.keys(chatrailMatchers).sort()).toEqual(['toBeInState', 'toBeKind', 'toBeReplayed', 'toHaveContext', 'toHaveOutcome', 'toMakeModelCalls', 'toRoute', 'toTransition'])
  })
})
