import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, bench, describe } from 'vitest'
import { createRolloutTail, readChat } from '../src/agents/codex/index.js'
import { compare, ratioText } from './support/compare.js'

// Codex rollout reading. The file is the real CLI's tool-run recording (test/fixtures/codex),
// its turn repeated with fresh ids to ~12 MB. The baseline is the least any reader must do: read
// the file, split it into lines and JSON.parse each one. Ratios by support/compare.ts (ABBA pairs,
// CPU time, the median of the per-pair ratios and their spread), printed after the run (times are
// machine-dependent; only the ratios mean anything).
const fixture = resolve(dirname(fileURLToPath(import.meta.url)), '../test/fixtures/codex/tool-run.rollout.jsonl')
const [meta = '', ...turn] = readFileSync(fixture, 'utf8').split('\n').filter((line) => line !== '')
const turnId = (JSON.parse(turn[0] ?? '{}') as { payload?: { turn_id?: string } }).payload?.turn_id ?? 'no-turn-id'
const copies: string[] = [meta]
for (let index = 0; copies.join('\n').length < 12 * 1024 * 1024 && index < 2000; index += 1) {
  for (const line of turn) copies.push(line.replaceAll(turnId, `${turnId}-${index}`).replaceAll('resp_', `r${index}_`))
}
const dir = mkdtempSync(join(tmpdir(), 'chatrail-codex-bench-'))
const path = join(dir, 'rollout.jsonl')
writeFileSync(path, `${copies.join('\n')}\n`)
const megabytes = Buffer.byteLength(readFileSync(path)) / (1024 * 1024)

const baseline = (): void => {
  for (const line of readFileSync(path, 'utf8').split('\n')) if (line !== '') JSON.parse(line)
}
const fullRead = async (): Promise<void> => {
  await readChat({ runId: '', runtimeDir: '', transcriptPath: path })
}

const tailedPath = join(dir, 'tailed.jsonl')
writeFileSync(tailedPath, readFileSync(path))
const appendTail = createRolloutTail(tailedPath)
await appendTail.read()
const kilobyteLine = JSON.stringify({ timestamp: new Date(0).toISOString(), type: 'event_msg', payload: { type: 'agent_message', message: 'x'.repeat(960) } })
const appendOne = async (): Promise<void> => {
  appendFileSync(tailedPath, `${kilobyteLine}\n`)
  await appendTail.read()
}

// A full read takes ~0.1 s: batches of ~0.2 s; the appends' batches are ~30 ms against one full read.
const full = await compare(baseline, fullRead, { repetitions: 11, batchMs: 200, minBatch: 1, warmUpMs: 1 })
const append = await compare(fullRead, appendOne, { repetitions: 11, batchMs: 30, minBatch: 1, warmUpMs: 1 })
const baseMs = full.base / 1000
const fullMs = full.subject / 1000
const appendMs = append.subject / 1000
const rate = (ms: number): string => `${(megabytes / (ms / 1000)).toFixed(0)} MB/s`
console.log(
  [
    `codex rollout, ${megabytes.toFixed(1)} MB (${copies.length} lines):`,
    `  baseline split+parse  ${baseMs.toFixed(1)} ms (${rate(baseMs)})`,
    `  readChat full read    ${fullMs.toFixed(1)} ms (${rate(fullMs)})  → ${ratioText(full)} the baseline (CPU time, median of 11 ABBA pairs (min–max))`,
    `  tail, 1 KB append     ${appendMs.toFixed(2)} ms  → ${ratioText(append, 4)} a full read`,
  ].join('\n'),
)

describe(`codex rollout read (${megabytes.toFixed(1)} MB): readChat = ${ratioText(full)} split+JSON.parse`, () => {
  bench(`baseline readFileSync + split + JSON.parse (${rate(baseMs)})`, baseline, { iterations: 5 })
  bench(`readChat full read: ${ratioText(full)} the baseline (${rate(fullMs)})`, fullRead, { iterations: 5 })
  bench(`tail, fold a 1 KB append: ${ratioText(append, 4)} a full read`, appendOne, { iterations: 50 })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
})
