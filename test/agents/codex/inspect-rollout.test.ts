import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/codex/index.js'
import { runInspect } from '../../../src/cli/inspect.js'

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/codex')

async function inspect(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runInspect(args, { stdout: (text) => (out += `${text}\n`), stderr: (text) => (err += `${text}\n`) })
  return { code, out, err }
}

describe('chatrail inspect on Codex rollouts', () => {
  it('detects a rollout by its content and prints it like a transcript', async () => {
    const result = await inspect(join(fixtures, 'aborted-turn.rollout.jsonl'))
    expect(result.code).toBe(0)
    expect(result.out).toMatch(/^codex · /)
    expect(result.out).toMatch(/status\s+stopped/)
    expect(result.out).toContain('interrupted')
  })

  it('--json prints exactly what readChat returns', async () => {
    const path = join(fixtures, 'tool-run.rollout.jsonl')
    const result = await inspect(path, '--json')
    expect(JSON.parse(result.out)).toEqual(JSON.parse(JSON.stringify(await readChat({ runId: 'inspect', runtimeDir: '', transcriptPath: path }))))
  })

  it('reads a .jsonl.zst rollout with --agent codex (detection through the decompressed head: inspect-untrusted.test.ts)', async () => {
    const result = await inspect(join(fixtures, 'resume.rollout.jsonl.zst'), '--agent', 'codex')
    expect(result.code).toBe(0)
    expect(result.out).toContain('-now show the notes, café ✓')
  })
})
