import { randomUUID } from 'node:crypto'
import { appendFileSync, readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { afterAll, bench, describe } from 'vitest'
import { createMonitor } from '../src/agents/monitor/index.js'
import { makeFakeHome, placeClaude, placeCodex } from '../test/agents/monitor/fake-home.js'
import type { PlacedSession } from '../test/agents/monitor/fake-home.js'

// The session monitor over 1,000 sessions (500 Claude Code transcripts, 500 Codex rollouts, from
// the recorded fixtures under fresh ids). Two baselines measured in the same run:
// - "list + stat": readdir of every session folder and a stat of every file, the least any poll
//   must do to notice a change; an idle tick and a one-append tick are reported as ratios to it;
// - "read + parse": readFileSync + split + JSON.parse of every file, the least a cold start must do;
//   the first tick is reported as a ratio to it.
// Times are machine-dependent; only the ratios mean anything.
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

const time = async (fn: () => unknown): Promise<number> => {
  const started = performance.now()
  await fn()
  return performance.now() - started
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
// Interleaved pair by pair, so a noisy shared machine slows both sides alike.
const idle: number[] = []
const append: number[] = []
const cold: number[] = []
for (let index = 0; index < 9; index += 1) {
  const base = await time(listAndStat)
  idle.push((await time(idleTick)) / base)
  append.push((await time(appendTick)) / base)
}
for (let index = 0; index < 3; index += 1) {
  const base = await time(readAndParse)
  cold.push((await time(coldTick)) / base)
}
const bytesBefore = monitor.stats().bytesRead
await appendTick()
const appendBytes = monitor.stats().bytesRead - bytesBefore
const idleRatio = median(idle)
const appendRatio = median(append)
const coldRatio = median(cold)
console.log(
  [
    'monitor over 1,000 sessions:',
    `  idle tick          ${idleRatio.toFixed(2)}× list + stat`,
    `  tick after 1 KB    ${appendRatio.toFixed(2)}× list + stat (bytes read: ${appendBytes})`,
    `  first (cold) tick  ${coldRatio.toFixed(2)}× read + split + JSON.parse of every file`,
  ].join('\n'),
)

describe(`monitor, 1,000 sessions: idle tick ${idleRatio.toFixed(2)}× list+stat, 1 KB append ${appendRatio.toFixed(2)}×, cold ${coldRatio.toFixed(2)}× read+parse`, () => {
  bench('baseline: readdir every folder + stat every file', listAndStat, { iterations: 5 })
  bench(`idle tick: ${idleRatio.toFixed(2)}× the list+stat baseline`, idleTick, { iterations: 5 })
  bench(`tick after a 1 KB append: ${appendRatio.toFixed(2)}× the list+stat baseline`, appendTick, { iterations: 5 })
  bench(`cold first tick: ${coldRatio.toFixed(2)}× read+split+JSON.parse of all files`, coldTick, { iterations: 2 })
  afterAll(() => home.cleanup())
})
