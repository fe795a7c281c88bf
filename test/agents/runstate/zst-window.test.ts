import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { createRolloutTail } from '../../../src/agents/codex/rollout-tail.js'
import { agentItem, sessionMeta, taskComplete, taskStarted, userItem } from '../codex/rollout-builders.js'
import { zstdStore } from '../codex/zstd-frames.js'

/**
 * Issue 28 item 6: a `.jsonl.zst` gets the plain file's window on its decoded stream, and nothing
 * outside the window is parsed or kept while decoding. The committed bomb (53 KB → 630 MB of
 * 5.7 million tiny lines, test/fixtures/codex-bomb) was read in ~50 s at ~700 MB RSS, folding the
 * first 128 MiB of lines (1.2 million messages) before the window applied; now it costs its
 * decoding time and one window.
 */

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..', '..', '..')
const BOMB = join(root, 'test', 'fixtures', 'codex-bomb', 'rollout-2026-11-30T00-09-21-01a229c8-e6d3-79b0-af45-e3627b5b6aad.jsonl.zst')

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-zst-window-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('a .jsonl.zst rollout is read through the plain file\'s window on its decoded stream', () => {
  it('the 53 KB bomb costs about its decoding time and bounded memory (own process, heap capped at 192 MB)', () => {
    const run = spawnSync(process.execPath, ['--max-old-space-size=192', '--import', 'tsx', join(here, 'support', 'read-compressed.ts'), BOMB], { cwd: root, encoding: 'utf8', timeout: 180_000 })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const seen = JSON.parse(run.stdout) as { readMs: number; decodeMs: number; decodedBytes: number; maxRssKb: number; messages: number; firstWarning: string; state: string; status: string; sessionId: string; cursor: AgentChat['cursor'] }
    expect(seen.decodedBytes).toBe(630_160_717)
    expect(seen.firstWarning).toMatch(/601\.0 MiB rollout \(decompressed\) read through windows \(its first line and the last 16\.0 MiB\)/)
    expect(seen.sessionId).toBe('01a229c8-e6d3-79b0-af45-e3627b5b6aad')
    expect([seen.state, seen.status]).toEqual(['needs_input', 'completed'])
    // The window's lines only: 16 MiB of 110-byte lines.
    expect(seen.messages).toBeLessThan(160_000)
    expect(seen.cursor.offset).toBe(630_160_717)
    // A ratio, not a time: the read is decoding plus one window's parsing (was ~20x the decode).
    expect(seen.readMs / seen.decodeMs).toBeLessThan(4)
    // Peak RSS of the whole process (Node and tsx included, ~80 MB): the goal is < 300 MB.
    expect(seen.maxRssKb / 1024).toBeLessThan(400)
  }, 200_000)

  const turn = (id: string, n: number): string[] => [taskStarted(id), userItem(id, `prompt ${n} ${'.'.repeat(150)}`), agentItem(id, `m-${id}`, `answer ${n}`), taskComplete(id)]
  const rollout = (turns: number): Buffer => {
    const lines = [sessionMeta('01a22000-0000-7000-8000-0000000000aa')]
    for (let n = 0; n < turns; n += 1) lines.push(...turn(`t${n}`, n))
    return Buffer.from(`${lines.join('\n')}\n`)
  }
  const neutral = (chat: AgentChat, path: string): unknown => JSON.parse(JSON.stringify(chat).replaceAll(path, '<file>').replaceAll('decompressed byte', 'byte').replaceAll(' (decompressed)', '')) as unknown
  const caps = { windowThresholdBytes: 64 * 1024, tailWindowBytes: 8 * 1024, maxLineBytes: 4 * 1024 }

  it.each([
    ['shorter than the kept window (decoded once, all kept)', 10],
    ['between the window and the threshold (decoded again, every line)', 60],
    ['past the threshold (the first line and the last window)', 200],
  ])('%s: reads as the same plain bytes', async (_name, turns) => {
    const bytes = rollout(turns)
    const plain = join(dir, 'rollout.jsonl')
    const zst = join(dir, 'rollout.jsonl.zst')
    writeFileSync(plain, bytes)
    writeFileSync(zst, zstdStore(bytes))
    const fromPlain = await createRolloutTail(plain, caps).read()
    const fromZst = await createRolloutTail(zst, caps).read()
    expect(neutral(fromZst, zst)).toEqual(neutral(fromPlain, plain))
    expect(fromZst.messages.at(-1)?.text).toBe(`answer ${turns - 1}`)
    expect(fromZst.warnings.some((warning) => / read through windows /.test(warning))).toBe(bytes.length >= caps.windowThresholdBytes)
  })
})
