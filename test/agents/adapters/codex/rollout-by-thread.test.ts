import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findRolloutByThread } from '../../../../src/agents/codex/adapter/rollout-by-thread.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('findRolloutByThread', () => {
  it('finds a thread\'s rollout by the id in its name, in any day folder, preferring the plain file', () => {
    const home = mkdtempSync(join(tmpdir(), 'chatrail-codex-home-'))
    dirs.push(home)
    const id = '01a229c8-6e81-78d0-b484-2ae67a183d52'
    const day = join(home, 'sessions', '2026', '11', '28')
    const other = join(home, 'sessions', '2026', '11', '29')
    mkdirSync(day, { recursive: true })
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, 'rollout-2026-11-29T10-00-00-01a229c8-0000-7000-8000-000000000000.jsonl'), '')
    writeFileSync(join(day, `rollout-2026-11-28T23-59-59-${id}.jsonl.zst`), '')
    writeFileSync(join(day, `rollout-2026-11-28T23-59-59-${id}.jsonl`), '')
    expect(findRolloutByThread(home, id)).toBe(join(day, `rollout-2026-11-28T23-59-59-${id}.jsonl`))
    expect(findRolloutByThread(home, id.toUpperCase())).toBe(join(day, `rollout-2026-11-28T23-59-59-${id}.jsonl`))
    expect(findRolloutByThread(home, '01a229c8-6e81-78d0-b484-000000000000')).toBeUndefined()
    expect(findRolloutByThread(join(home, 'missing'), id)).toBeUndefined()
  })
})
