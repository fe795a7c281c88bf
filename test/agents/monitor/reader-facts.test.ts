import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createTranscriptTail } from '../../../src/agents/claude-code/index.js'
import { readRolloutOrigin } from '../../../src/agents/codex/index.js'

/**
 * The two reader exports the monitor added: the Claude fold's `cwd` and `title` (kept when
 * `maxMessages` drops the message itself), and Codex's `readRolloutOrigin` (plain and `.zst`).
 */

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url))

describe('reader facts for the monitor', () => {
  it('Claude: the fold keeps the first typed prompt as the title and the newest cwd, past a 1-message window', async () => {
    const tail = createTranscriptTail(join(fixtures, 'claude-code/plain-turn/4ea1fec7-83eb-4ef5-8ab2-c8313fa607b3.jsonl'), { maxMessages: 1 })
    const view = await tail.read()
    expect(view.messages.map((message) => message.text)).toEqual(['Hello! How can I help?'])
    expect(view).toMatchObject({ title: 'Say hello', cwd: '/tmp/chatrail-cc-ZTv8MF/proj' })
  })

  it('Claude: a slash command is not a title; the first real prompt after it is', async () => {
    const view = await createTranscriptTail(join(fixtures, 'claude-code/clear/1dadd45d-5ad8-4c7b-84d6-c2dc1458dc07.jsonl')).read()
    const prompts = view.messages.filter((message) => message.kind === 'text' && message.role === 'user').map((message) => message.text)
    expect(prompts[0]).toBe('/clear')
    expect(view.title).toBe(prompts.find((text) => text !== '/clear'))
  })

  it('Codex: readRolloutOrigin gives the thread id and cwd from session_meta, for plain and .zst rollouts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-origin-'))
    try {
      const name = 'rollout-2026-11-30T00-09-21-01a229c8-e6d3-79b0-af45-e3627b5b6aad.jsonl'
      copyFileSync(join(fixtures, 'codex/plain-turn.rollout.jsonl'), join(dir, name))
      const plain = await readRolloutOrigin(join(dir, name))
      expect(plain).toMatchObject({ sessionId: '01a229c8-e6d3-79b0-af45-e3627b5b6aad' })
      expect(plain?.cwd).toMatch(/^\//)
      const zstName = 'rollout-2026-11-30T00-13-00-01a229cb-0000-7000-8000-000000000000.jsonl.zst'
      copyFileSync(join(fixtures, 'codex/resume.rollout.jsonl.zst'), join(dir, zstName))
      const compressed = await readRolloutOrigin(join(dir, zstName))
      expect(compressed?.cwd).toMatch(/^\//)
      expect(compressed?.sessionId).toMatch(/^[0-9a-f-]{36}$/)
      copyFileSync(join(fixtures, 'claude-code/plain-turn/4ea1fec7-83eb-4ef5-8ab2-c8313fa607b3.jsonl'), join(dir, 'notes.jsonl'))
      expect(await readRolloutOrigin(join(dir, 'notes.jsonl'))).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
