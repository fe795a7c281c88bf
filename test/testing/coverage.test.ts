import { describe, expect, it } from 'vitest'
import { computeCoverage, formatCoverage, formatPercent } from '../../src/testing/conversations/coverage.js'
import { runConversation } from '../../src/testing/conversations/run-conversation.js'
import { shopBot } from './fixtures/shop-bot.js'

describe('computeCoverage', () => {
  it('counts exactly what ran: routes, visited states and fired transitions, against the declared ones', async () => {
    const a = await runConversation(shopBot, [{ user: '/start' }, { user: '/help' }, { user: '/help' }, { user: 'hi' }, { user: 'order tea' }, { retry: true }])
    const b = await runConversation(shopBot, [{ user: '/start' }, { user: 'order jam' }, { user: '/cancel' }])
    const report = computeCoverage(shopBot, [
      { startState: 'idle', traces: a.traces },
      { startState: 'idle', traces: b.traces },
    ])
    expect(report.routes.items).toEqual([
      { key: 'start', hits: 2 },
      { key: 'help', hits: 2 },
      // The retry replayed the decision: it does not count again.
      { key: 'order', hits: 2 },
      { key: 'confirm', hits: 0 },
      { key: 'cancel', hits: 1 },
    ])
    expect(report.states.items).toEqual([
      { key: 'idle', hits: 2 },
      { key: 'menu', hits: 3 },
      { key: 'ordering', hits: 2 },
      { key: 'done', hits: 0 },
    ])
    expect(report.transitions.items).toEqual([
      { key: 'idle --START--> menu', hits: 2 },
      { key: 'menu --ORDER--> ordering', hits: 2 },
      { key: 'menu --HELP--> menu', hits: 2 },
      { key: 'ordering --CONFIRM--> done', hits: 0 },
      { key: 'ordering --CANCEL--> menu', hits: 1 },
    ])
    expect([report.routes, report.states, report.transitions].map((d) => [d.exercised, d.declared, d.missed])).toEqual([
      [4, 5, ['confirm']],
      [3, 4, ['done']],
      [4, 5, ['ordering --CONFIRM--> done']],
    ])
    expect(report.percent).toBeCloseTo((11 / 14) * 100, 10)
    expect(formatCoverage(report)).toBe(
      [
        'coverage of shop-bot: 78.5%',
        '  routes         4/5   80%',
        '  states         3/4   75%',
        '  transitions    4/5   80%',
        '  never exercised:',
        '    route       confirm',
        '    state       done',
        '    transition  ordering --CONFIRM--> done',
      ].join('\n'),
    )
  })

  it('counts a start state as visited and ignores failed turns', async () => {
    const run = await runConversation(shopBot, [{ user: '/help' }], { start: { state: 'ordering' } })
    const report = computeCoverage(shopBot, [{ startState: 'ordering', traces: run.traces }])
    expect(report.states.items.find((item) => item.key === 'ordering')?.hits).toBe(1)
    expect(report.routes.exercised).toBe(0)
    const failed = { ...run.traces[0], kind: 'deterministic', outcome: 'error', routeId: 'help', event: 'HELP', fromState: 'menu', toState: 'menu' } as (typeof run.traces)[number]
    expect(computeCoverage(shopBot, [{ startState: 'menu', traces: [failed] }]).routes.exercised).toBe(0)
  })

  it('formats percentages without rounding up to a false 100%', () => {
    expect([formatPercent(100), formatPercent(99.96), formatPercent(50), formatPercent(200 / 3)]).toEqual(['100%', '99.9%', '50%', '66.6%'])
  })
})
