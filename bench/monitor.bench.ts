import { randomUUID } from 'node:crypto'
import { appendFileSync, readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { afterAll, bench, describe } from 'vitest'
import { createMonitor } from '../src/agents/monitor/index.js'
import { makeFakeHome, placeClaude, placeCodex } from '../test/agents/monitor/fake-home.js'
import type { PlacedSession } from '../test/agents/monitor/fake-home.js'
import { compare, ratioText } from './support/compare.js'

// The session monitor over 1,000 sessions (500 Claude Code transcripts, 500 Codex rollouts, from
// the recorded fixtures under fresh ids). Two baselines measured in the same run:
// - "list + stat": readdir of every session folder and a stat of every file, the least any poll
//   must do to notice a change; an idle tick and a one-append tick are reported as ratios to it;
// - "read + parse": readFileSync + split + JSON.parse of every file, the least a cold start must do;
//   the first tick is reported as a ratio to it.
// Ratios by support/compare.ts (warm-up, batches sized by time, ABBA pairs, CPU time of this process
// and its I/O threads, the median of the per-pair ratios with their spread). Times are
// machine-dependent; only the ratios mean anything.
const home = makeFakeHome()
const sessions: PlacedSession[] = []
for (let index = 0; index < 500; index += 1) {
  sessions.push(placeClaude(home, 'plain-turn', { sessionId: randomUUID() }), placeCodex(home, 'plain-turn', { sessionId: randomUUID() }))
}
const folders = [...new Set(sessions.map((session) => session.path.slice(0, session.path.lastIndexOf('/'))))]

const listAndStat = async (): Promise<void> => {
  await Promise.all(folders.map((folder) => readdir(folder)))
  await Promise.all(sessions.map((session) => stat(session.path)))
}
const readAndParse = (): void => {
  for (const session of sessions) for (const line of readFileSync(session.path, 'utf8').split('\n')) if (line !== '') JSON.parse(line)
}
const coldTick = async (): Promise<void> => {
  await createMonitor({ home: home.home }).tick()
}
const monitor = createMonitor({ home: home.home })
await monitor.tick()
const idleTick = async (): Promise<void> => {
  await monitor.tick()
}
const target = sessions[1] as PlacedSession
const kilobyteLine = `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'agent_message', message: 'x'.repeat(960) } })}\n`
const appendTick = async (): Promise<void> => {
  appendFileSync(target.path, kilobyteLine)
  await monitor.tick()
}

// The idle and append ticks against list + stat in ~30 ms batches; the cold tick (~1,000 files read)
// against read + parse one call a batch.
const idle = await compare(listAndStat, idleTick, { repetitions: 15, minBatch: 1 })
const append = await compare(listAndStat, appendTick, { repetitions: 15, minBatch: 1 })
const cold = await compare(readAndParse, coldTick, { repetitions: 7, batchMs: 1, minBatch: 1, warmUpMs: 1 })
const bytesBefore = monitor.stats().bytesRead
await appendTick()
const appendBytes = monitor.stats().bytesRead - bytesBefore
const idleRatio = idle.ratio
const appendRatio = append.ratio
const coldRatio = cold.ratio
console.log(
  [
    'monitor over 1,000 sessions:',
    `  idle tick          ${ratioText(idle)} list + stat (median of 15 ABBA pairs (min–max))`,
    `  tick after 1 KB    ${ratioText(append)} list + stat (bytes read: ${appendBytes})`,
    `  first (cold) tick  ${ratioText(cold)} read + split + JSON.parse of every file (7 pairs)`,
  ].join('\n'),
)

describe(`monitor, 1,000 sessions: idle tick ${idleRatio.toFixed(2)}× list+stat, 1 KB append ${appendRatio.toFixed(2)}×, cold ${coldRatio.toFixed(2)}× read+parse`, () => {
  bench('baseline: readdir every folder + stat every file', listAndStat, { iterations: 5 })
  bench(`idle tick: ${idleRatio.toFixed(2)}× the list+stat baseline`, idleTick, { iterations: 5 })
  bench(`tick after a 1 KB append: ${appendRatio.toFixed(2)}× the list+stat baseline`, appendTick, { iterations: 5 })
  bench(`cold first tick: ${coldRatio.toFixed(2)}× read+split+JSON.parse of all files`, coldTick, { iterations: 2 })
  afterAll(() => home.cleanup())
})
