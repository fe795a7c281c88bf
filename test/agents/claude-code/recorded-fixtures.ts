import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The snapshots `npm run fixtures:record` recorded from the real CLI (test/fixtures/claude-code/). */

export const FIXTURES_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code')

export interface RecordedFixture {
  name: string
  dir: string
  /** The transcript the CLI was on at snapshot time. */
  transcript: string
  /** Every transcript file of the snapshot (two after /clear). */
  transcripts: string[]
  registry?: string
  /** Use as `runtimeDir` with run id `fixture`. */
  signals?: string
  runId: string
}

interface ScenarioMeta {
  transcript: string
  transcripts: string[]
  runId: string
}

export function recordedFixture(name: string): RecordedFixture {
  const dir = join(FIXTURES_DIR, name)
  const meta = JSON.parse(readFileSync(join(dir, 'scenario.json'), 'utf8')) as ScenarioMeta
  const registry = join(dir, 'registry.json')
  const signals = join(dir, 'signals')
  return {
    name,
    dir,
    transcript: join(dir, meta.transcript),
    transcripts: meta.transcripts.map((f) => join(dir, f)),
    ...(existsSync(registry) ? { registry } : {}),
    ...(existsSync(signals) ? { signals } : {}),
    runId: meta.runId,
  }
}

export function recordedFixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(FIXTURES_DIR, d.name, 'scenario.json')))
    .map((d) => d.name)
    .sort()
}
