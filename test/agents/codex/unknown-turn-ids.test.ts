import { describe, expect, it } from 'vitest'
import { createRolloutFold } from '../../../src/agents/codex/rollout-fold.js'
import { TurnLifecycle } from '../../../src/agents/codex/turn-lifecycle.js'
import { agentMessage, taskComplete, taskStarted, userMessage } from './rollout-builders.js'

/**
 * Issue 15 item 5: `task_complete` lines naming turn ids that never started used to cost a scan of
 * every turn so far each (20k lines took 15 s). Finding a turn by id is a map lookup now, so the
 * fold is linear: 10× the lines costs about 10× the time, never ~100×.
 */

function unknownCompletes(count: number): string[] {
  const lines = [userMessage('hi')]
  for (let index = 0; index < count; index += 1) lines.push(taskComplete(`never-started-${index}`))
  return lines
}

function foldMs(lines: readonly string[]): number {
  const parsed = lines.map((line) => JSON.parse(line) as unknown)
  const started = performance.now()
  const fold = createRolloutFold()
  parsed.forEach((value, index) => fold.push(value, index + 1))
  fold.snapshot({ offset: 0, lines: parsed.length })
  return performance.now() - started
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

describe('codex fold: unknown turn ids are linear', () => {
  it('20k unknown task_complete lines cost about 10× 2k of them (quadratic was ~100×)', () => {
    const small = unknownCompletes(2_000)
    const large = unknownCompletes(20_000)
    foldMs(small) // warm up the JIT
    // Interleaved pairs, median ratio: a busy (shared) machine slows both sides of a pair alike.
    // Five pairs (~1 s each; seven cost 7.7 s of the unit loop): the median needs three slowed
    // pairs to move, and quadratic (245×) is six times the bound, linear (~10×) a quarter of it.
    const ratios: number[] = []
    for (let pair = 0; pair < 5; pair += 1) ratios.push(foldMs(large) / Math.max(foldMs(small), 0.5))
    const ratio = median(ratios)
    // Linear is ~10×; quadratic measured 245× here. The bound leaves room for noise and GC.
    expect(ratio, `20k/2k fold time ratios: ${ratios.map((r) => r.toFixed(1)).join(', ')}`).toBeLessThan(40)
  }, 60_000)

  it('a known id still finishes its own turn, and an id of an older finished turn is ignored', () => {
    const turns = new TurnLifecycle()
    turns.start('t1', 1)
    turns.complete('t1', undefined, 2)
    turns.start('t2', 2)
    turns.complete('t1', undefined, 3)
    expect(turns.turns.map((t) => [t.id, t.status, t.open])).toEqual([
      ['t1', 'completed', false],
      ['t2', 'running', true],
    ])
    turns.complete('t2', undefined, 3)
    expect(turns.last).toMatchObject({ id: 't2', status: 'completed', open: false })
  })

  it('after a rollback drops a turn, its id names the older turn with that id again', () => {
    const turns = new TurnLifecycle()
    turns.start('same', 1)
    turns.complete('same', undefined, 2)
    turns.start('same', 2)
    turns.rollback(1)
    // The remaining turn "same" is finished: a late task_complete for it is ignored.
    turns.complete('same', { message: 'late' }, 3)
    expect(turns.turns.map((t) => [t.id, t.status])).toEqual([['same', 'completed']])
  })

  it('a rollout of unknown completes still reads as its last turn says', () => {
    const fold = createRolloutFold()
    const lines = [userMessage('hi'), taskStarted('a'), agentMessage('hello'), taskComplete('a'), taskComplete('ghost')]
    lines.forEach((line, index) => fold.push(JSON.parse(line) as unknown, index + 1))
    expect(fold.snapshot({ offset: 0, lines: 5 })).toMatchObject({ state: 'needs_input', status: 'completed' })
  })
})
