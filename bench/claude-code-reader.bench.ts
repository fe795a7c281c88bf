import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, bench, describe } from 'vitest'
import { createTranscriptTail, readChat } from '../src/agents/claude-code/index.js'
import { compare, ratioText } from './support/compare.js'

// Claude Code transcript reading. The file is the recorded real-CLI snapshots
// (test/fixtures/claude-code: prompts, attachments, split API messages, tools, dialogs, errors)
// repeated with fresh uuids, tool ids and message ids to ~100 MB. The baseline is the least any
// reader must do: read the file, split it into lines and JSON.parse each one. Ratios by
// support/compare.ts (ABBA pairs, CPU time, the median of the per-pair ratios and their spread),
// printed after the run and in the bench names (only the ratios mean anything). A full read takes
// about a second, so its batches are one call and the pairs few.
const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../test/fixtures/claude-code')
const template: string[] = []
for (const name of readdirSync(fixtures).sort()) {
  if (name.endsWith('.md')) continue
  for (const file of readdirSync(join(fixtures, name)).filter((f) => f.endsWith('.jsonl'))) {
    template.push(...readFileSync(join(fixtures, name, file), 'utf8').split('\n').filter((line) => line !== ''))
  }
}
const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)[0-9a-f]{12}/g
const TARGET = 100 * 1024 * 1024
const copies: string[] = []
let size = 0
for (let copy = 0; size < TARGET; copy += 1) {
  const tag = copy.toString(16).padStart(12, '0')
  for (const line of template) {
    const fresh = line.replace(UUID, (_match, head: string) => `${head}${tag}`).replaceAll('toolu_scripted_', `toolu_c${copy}_`).replaceAll('msg_scripted_', `msg_c${copy}_`)
    copies.push(fresh)
    size += fresh.length + 1
  }
}
const dir = mkdtempSync(join(tmpdir(), 'chatrail-claude-bench-'))
// vitest's bench mode does not always run afterAll; the 100 MB file must not outlive the process.
process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
const path = join(dir, 'transcript.jsonl')
writeFileSync(path, `${copies.join('\n')}\n`)
copies.length = 0
const megabytes = size / (1024 * 1024)

const baseline = (): void => {
  for (const line of readFileSync(path, 'utf8').split('\n')) if (line !== '') JSON.parse(line)
}
const fullRead = async (): Promise<void> => {
  await readChat({ runId: 'bench', runtimeDir: '', transcriptPath: path })
}

// A live tail on the same 100 MB file, fed one ~1 KB assistant line at a time.
const tail = createTranscriptTail(path)
await tail.read()
let appended = 0
const appendOne = async (): Promise<void> => {
  appended += 1
  const line = JSON.stringify({ parentUuid: null, isSidechain: false, type: 'assistant', uuid: `ffffffff-0000-4000-8000-${appended.toString(16).padStart(12, '0')}`, timestamp: new Date(appended).toISOString(), sessionId: 'bench', message: { id: `msg_append_${appended}`, role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(800) }], stop_reason: 'end_turn' } })
  appendFileSync(path, `${line}\n`)
  await tail.read()
}

// One call a batch (batchMs 1): a full read is ~1 s. The appends' batches are ~30 ms of appends
// against one full read; they grow the file by ~2 % over the run.
const full = await compare(baseline, fullRead, { repetitions: 7, batchMs: 1, minBatch: 1, warmUpMs: 1 })
const append = await compare(fullRead, appendOne, { repetitions: 5, batchMs: 30, minBatch: 1, warmUpMs: 1 })
const baseMs = full.base / 1000
const fullMs = full.subject / 1000
const appendMs = append.subject / 1000
const rate = (ms: number): string => `${(megabytes / (ms / 1000)).toFixed(0)} MB/s`
console.log(
  [
    `claude-code transcript, ${megabytes.toFixed(1)} MB:`,
    `  baseline split+parse  ${baseMs.toFixed(0)} ms (${rate(baseMs)})`,
    `  readChat full read    ${fullMs.toFixed(0)} ms (${rate(fullMs)})  → ${ratioText(full)} the baseline (CPU time, median of 7 ABBA pairs (min–max))`,
    `  tail, 1 KB append     ${appendMs.toFixed(2)} ms  → ${ratioText(append, 5)} a full read (median of 5 ABBA pairs)`,
  ].join('\n'),
)

describe(`claude-code transcript read (${megabytes.toFixed(0)} MB): readChat = ${ratioText(full)} split+JSON.parse`, () => {
  bench(`baseline readFileSync + split + JSON.parse (${rate(baseMs)})`, baseline, { iterations: 1 })
  bench(`readChat full read: ${ratioText(full)} the baseline (${rate(fullMs)})`, fullRead, { iterations: 1 })
  bench(`tail, fold a 1 KB append to ${megabytes.toFixed(0)} MB: ${ratioText(append, 5)} a full read`, appendOne, { iterations: 20 })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
})
