import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseJsonLine } from '../../../../src/agents/process/json-value.js'
import type { JsonRecord } from '../../../../src/agents/process/json-value.js'

/** Reads stream captures: ours (test/fixtures, always present) and the shared ones (optional). */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')
export const OWN_CLAUDE_CAPTURES = join(root, 'test/fixtures/claude-code/stream-json')
export const OWN_CODEX_CAPTURES = join(root, 'test/fixtures/codex/exec')
export const SHARED_CLAUDE_CAPTURES = join(root, '../shared/fixtures/claude-code/stream-json')
export const SHARED_CODEX_CAPTURES = join(root, '../shared/fixtures/codex/exec')

export function readEvents(path: string): JsonRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map(parseJsonLine)
    .filter((event): event is JsonRecord => event !== undefined)
}

/** A pretty-printed single-object `.json` capture, or a JSONL one. */
export function readCapture(path: string): JsonRecord[] {
  if (path.endsWith('.json')) {
    const value = parseJsonLine(readFileSync(path, 'utf8').replace(/\n\s*/g, ' '))
    return value ? [value] : []
  }
  return readEvents(path)
}

export function ownCapture(dir: string, name: string): JsonRecord[] {
  return readEvents(join(dir, `${name}.jsonl`))
}

/** Every capture file under `dir` (recursively), as paths relative to it; [] when `dir` is absent. */
export function listCaptures(dir: string): string[] {
  if (!existsSync(dir)) return []
  const found: string[] = []
  const walk = (at: string): void => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.jsonl?$/.test(entry)) found.push(relative(dir, path))
    }
  }
  walk(dir)
  return found.sort()
}

/** Splits a multi-turn capture after each terminal event (`result` / `turn.completed` / `turn.failed`). */
export function splitTurns(events: readonly JsonRecord[], isTerminal: (event: JsonRecord) => boolean): JsonRecord[][] {
  const turns: JsonRecord[][] = [[]]
  for (const event of events) {
    ;(turns.at(-1) as JsonRecord[]).push(event)
    if (isTerminal(event)) turns.push([])
  }
  return turns.filter((turn) => turn.length > 0)
}
