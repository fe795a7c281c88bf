import { copyFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { detectAgent, runInspect } from '../../src/cli/inspect.js'
import { readChat } from '../../src/agents/claude-code/read-chat.js'
import { tempDir, transcript } from './claude-code/transcript-builder.js'
import { sessionMeta, userMessage } from './codex/rollout-builders.js'
import { zstdStore } from './codex/zstd-frames.js'

/**
 * `chatrail inspect` on untrusted files (issue 15 items 6, 7 and 14): detection streams the first
 * complete lines (however long) and sees through zstd; values nested deeper than any renderer can
 * walk are elided by the readers, so printing never overflows the stack.
 */

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/codex')

async function inspect(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runInspect(args, { stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`) })
  return { code, out, err }
}

/** JSON text nested `depth` objects deep (built as text: JSON.stringify itself cannot write it). */
function nested(depth: number): string {
  return `${'{"next":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`
}

describe('inspect: detection', () => {
  it('detects a transcript whose first line is longer than 256 KiB (item 14)', async () => {
    const tmp = tempDir()
    try {
      const path = tmp.write('long-first.jsonl', transcript().prompt('p'.repeat(600 * 1024)).text('hello').jsonl())
      expect((await detectAgent(path))?.agent).toBe('claude-code')
      const result = await inspect([path])
      expect(result).toMatchObject({ code: 0, err: '' })
      expect(result.out).toContain('claude-code')
    } finally {
      tmp.cleanup()
    }
  })

  it('detects a Codex .jsonl.zst rollout through its decompressed head, without --agent (item 6)', async () => {
    const tmp = tempDir()
    try {
      const path = join(tmp.dir, 'rollout.jsonl.zst')
      copyFileSync(join(fixtures, 'resume.rollout.jsonl.zst'), path)
      expect((await detectAgent(path))?.agent).toBe('codex')
      const result = await inspect([path, '--json'])
      expect(result.code).toBe(0)
      expect(JSON.parse(result.out)).toMatchObject({ agent: 'codex' })
      const made = join(tmp.dir, 'made.jsonl.zst')
      writeFileSync(made, zstdStore(`${sessionMeta()}\n${userMessage('hi')}\n`))
      expect((await detectAgent(made))?.agent).toBe('codex')
    } finally {
      tmp.cleanup()
    }
  })

  it('still refuses a file that is no transcript, and one whose only line is over the line cap', async () => {
    const tmp = tempDir()
    try {
      expect(await detectAgent(tmp.write('notes.jsonl', '{"hello":"world"}\nplain text\n'))).toBeUndefined()
      expect(await detectAgent(tmp.write('empty.jsonl', ''))).toBeUndefined()
    } finally {
      tmp.cleanup()
    }
  })
})

describe('inspect: deep nesting (item 7)', () => {
  it('a tool input nested 6,000 levels prints (human and --json) with the deep part elided', async () => {
    const tmp = tempDir()
    try {
      const path = tmp.write('deep.jsonl', transcript().prompt('go').toolUse('t1', 'Bash', 'DEEP').jsonl().replace('"input":"DEEP"', `"input":${nested(6000)}`))
      const human = await inspect([path])
      expect(human.err).toBe('')
      expect(human.code).toBe(0)
      expect(human.out).toContain('Bash')
      const json = await inspect([path, '--json'])
      expect(json.code).toBe(0)
      const chat = JSON.parse(json.out) as { messages: Array<{ tool?: { input: unknown } }> }
      const input = chat.messages.find((m) => m.tool)?.tool?.input
      expect(JSON.stringify(input)).toContain('nested deeper than')
      const direct = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: path })
      expect(() => JSON.stringify(direct)).not.toThrow()
      expect(direct.warnings).toContainEqual(expect.stringContaining('nested deeper than'))
    } finally {
      tmp.cleanup()
    }
  })
})

describe('inspect: deep nesting in a Codex rollout (item 7)', () => {
  it('function_call arguments nested 6,000 levels print with the deep part elided', async () => {
    const tmp = tempDir()
    try {
      const call = JSON.stringify({ timestamp: '2026-01-05T10:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: nested(6000), call_id: 'c1' } })
      const path = tmp.write('rollout.jsonl', `${sessionMeta()}\n${userMessage('go')}\n${call}\n`)
      for (const args of [[path], [path, '--json']]) {
        const result = await inspect(args)
        expect(result).toMatchObject({ code: 0, err: '' })
        expect(result.out).toContain('nested deeper than')
      }
    } finally {
      tmp.cleanup()
    }
  })
})
