import { bench, describe } from 'vitest'
import { createRolloutFold } from '../src/agents/codex/index.js'

// Issue 15 item 5: a rollout of `task_complete` lines naming turns that never started. The fold
// finds a turn by id through a map, so 10× the lines should cost ~10× the time (it was ~100×:
// 20k lines took 15 s). Both sizes are timed in this one run, interleaved, and the median ratio is
// reported (times are machine-dependent; the ratio is what means anything).
const line = (turnId: string): unknown => ({ timestamp: '2026-01-05T10:00:00.000Z', type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId, last_agent_message: null } })
const rollout = (count: number): unknown[] => {
  const lines: unknown[] = [{ timestamp: '2026-01-05T10:00:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'hi', images: [] } }]
  for (let index = 0; index < count; index += 1) lines.push(line(`never-started-${index}`))
  return lines
}
const small = rollout(2_000)
const large = rollout(20_000)
const fold = (lines: readonly unknown[]) => (): void => {
  const f = createRolloutFold()
  lines.forEach((value, index) => f.push(value, index + 1))
  f.snapshot({ offset: 0, lines: lines.length })
}
const time = (fn: () => void): number => {
  const started = performance.now()
  fn()
  return performance.now() - started
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
fold(small)()
const ratios: number[] = []
for (let index = 0; index < 5; index += 1) ratios.push(time(fold(large)) / time(fold(small)))
const ratio = median(ratios)
console.log(`codex unknown turn ids: 20k task_complete lines take ${ratio.toFixed(1)}× 2k of them (linear ≈ 10×, quadratic ≈ 100×)`)

describe(`codex fold, unknown turn ids: 20k lines = ${ratio.toFixed(1)}× 2k lines (linear ≈ 10×)`, () => {
  bench('2k task_complete lines with unknown turn ids', fold(small), { iterations: 10 })
  bench(`20k task_complete lines with unknown turn ids: ${ratio.toFixed(1)}× the 2k row`, fold(large), { iterations: 5 })
})
