import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/codex/read-chat.js'
import { createRolloutTail } from '../../../src/agents/codex/rollout-tail.js'
import { sessionMeta, userMessage } from './rollout-builders.js'
import { zstdFrame, zstdStore } from './zstd-frames.js'
import type { ZstdBlock } from './zstd-frames.js'

/**
 * Issue 15 item 6: a `.jsonl.zst` rollout is read under the caps of a plain one, applied to the
 * decompressed stream: windows past the threshold, the line cap, and a cap on decompressed bytes.
 * The bombs are real zstd (RLE blocks: 4 bytes each that decode to 128 KiB).
 */

const ID = '01a229ba-571a-7273-b111-e6cbc1a7411b'
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-zst-caps-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** session_meta, then `count` prompts of ~`size` bytes each whose bulk is an RLE block. */
function bomb(count: number, size: number): Buffer {
  const blocks: ZstdBlock[] = [{ raw: Buffer.from(`${sessionMeta(ID)}\n`) }]
  for (let index = 0; index < count; index += 1) {
    const [head, tail] = userMessage(`prompt ${index} §`).split('§') as [string, string]
    blocks.push({ raw: Buffer.from(head) }, { rle: 0x61, size }, { raw: Buffer.from(`${tail}\n`) })
  }
  return zstdFrame(blocks)
}

const write = (name: string, bytes: Buffer): string => {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

describe('.zst rollouts: the caps of plain files, on the decompressed stream', () => {
  it('past the window threshold only the session_meta line and the last window are folded, and the chat says so', async () => {
    // 400 prompts of 256 KiB: 100 MiB decompressed from a ~50 KB file.
    const path = write(`rollout-2026-01-05T10-00-00-${ID}.jsonl.zst`, bomb(400, 256 * 1024))
    const chat = await readChat({ runId: '', runtimeDir: '', transcriptPath: path }, { windowThresholdBytes: 8 * 1024 * 1024, tailWindowBytes: 1024 * 1024 })
    expect(chat.sessionId).toBe(ID)
    // A 1 MiB window holds the last 3-4 prompts of 256 KiB, never all 400.
    expect(chat.messages.length).toBeGreaterThan(0)
    expect(chat.messages.length).toBeLessThanOrEqual(4)
    expect(chat.messages.at(-1)?.text?.startsWith('prompt 399 ')).toBe(true)
    expect(chat.warnings[0]).toMatch(/MiB rollout \(decompressed\) read through windows/)
    expect(chat.cursor.offset).toBeGreaterThan(100 * 1024 * 1024)
  })

  it('stops decoding at maxDecompressedBytes with a warning, showing what was decoded', async () => {
    const path = write('bomb.jsonl.zst', bomb(64, 1024 * 1024))
    const chat = await readChat({ runId: '', runtimeDir: '', transcriptPath: path }, { maxDecompressedBytes: 8 * 1024 * 1024, windowThresholdBytes: 4 * 1024 * 1024, tailWindowBytes: 2 * 1024 * 1024 })
    expect(chat.warnings).toContainEqual(expect.stringMatching(/decoding stopped after 8\.0 MiB of decompressed data/))
    expect(chat.cursor.offset).toBeLessThanOrEqual(8 * 1024 * 1024)
  })

  it('a decompressed line over the cap is skipped with a placeholder, exactly as in a plain file', async () => {
    const plain = `${sessionMeta(ID)}\n${userMessage('x'.repeat(5000))}\n${userMessage('after')}\n`
    const zst = write('capped.jsonl.zst', zstdStore(plain))
    const flat = write('capped.jsonl', Buffer.from(plain))
    const fromZst = await readChat({ runId: '', runtimeDir: '', transcriptPath: zst }, { maxLineBytes: 1024 })
    const fromPlain = await readChat({ runId: '', runtimeDir: '', transcriptPath: flat }, { maxLineBytes: 1024 })
    expect(fromZst.messages).toEqual(fromPlain.messages)
    expect(fromZst.messages.map((m) => m.kind)).toEqual(['lifecycle', 'text'])
    expect(fromZst.warnings).toEqual([expect.stringContaining('line 2 (at decompressed byte')])
  })

  it('below the threshold a .zst reads exactly as the same plain bytes', async () => {
    const plain = `${sessionMeta(ID)}\n${userMessage('one')}\n{broken\n${userMessage('two')}\n`
    const fromZst = await createRolloutTail(write('same.jsonl.zst', zstdStore(plain))).read()
    const fromPlain = await createRolloutTail(write('same.jsonl', Buffer.from(plain))).read()
    expect({ ...fromZst, warnings: fromZst.warnings.length }).toEqual({ ...fromPlain, warnings: fromPlain.warnings.length })
  })
})
