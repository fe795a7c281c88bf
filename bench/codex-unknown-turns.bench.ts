import { bench, describe } from 'vitest'
import { createRolloutFold } from '../src/agents/codex/index.js'
import { compare, ratioText } from './support/compare.js'

// Issue 15 item 5: a rollout of `task_complete` lines naming turns that never started. The fold
// finds a turn by id through a map, so 10× the lines should cost ~10× the time (it was ~100×:
// 20k lines took 15 s). Both sizes are timed in this one run by support/compare.ts (ABBA pairs, CPU
// time, the median of the per-pair ratios with their spread; the ratio is what means anything).
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
const folds = await compare(fold(small), fold(large), { repetitions: 15, batchMs: 50, minBatch: 1 })
const ratio = folds.ratio
console.log(`codex unknown turn ids: 20k task_complete lines take ${ratioText(folds, 1)} 2k of them (median of 15 ABBA pairs (min–max); linear ≈ 10×, quadratic ≈ 100×)`)

describe(`codex fold, unknown turn ids: 20k lines = ${ratioText(folds, 1)} 2k lines (linear ≈ 10×)`, () => {
  bench('2k task_complete lines with unknown turn ids', fold(small), { iterations: 10 })
  bench(`20k task_complete lines with unknown turn ids: ${ratio.toFixed(1)}× the 2k row`, fold(large), { iterations: 5 })
})
