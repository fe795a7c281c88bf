import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import { detectAgent, runInspect } from '../../../src/cli/inspect.js'
import { recordedFixture } from './recorded-fixtures.js'
import { askInput, SESSION, tempDir, transcript } from './transcript-builder.js'

/** `chatrail inspect`: the human view, `--json` (exactly the AgentChat), detection and errors. */

async function inspect(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runInspect(args, { stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`) })
  return { code, out, err }
}

describe('chatrail inspect', () => {
  it('--json prints exactly what readChat returns (registry and live signals included)', async () => {
    const f = recordedFixture('question-pending')
    const { code, out } = await inspect([f.transcript, '--json', '--registry', f.registry ?? '', '--runtime-dir', f.signals ?? '', '--run-id', f.runId])
    expect(code).toBe(0)
    expect(JSON.parse(out)).toEqual(await readChat({ runId: f.runId, runtimeDir: f.signals ?? '', transcriptPath: f.transcript, registry: f.registry ?? '' }))
  })

  it('--registry applies to a transcript whose file name differs from its session id', async () => {
    const tmp = tempDir()
    try {
      const path = tmp.write('renamed.jsonl', transcript().prompt('hi').text('hello').jsonl())
      const entry = tmp.write('4242.json', JSON.stringify({ pid: 4242, sessionId: SESSION, cwd: '/w', status: 'busy' }))
      const { code, out } = await inspect([path, '--json', '--registry', entry])
      expect(code).toBe(0)
      expect(JSON.parse(out)).toMatchObject({ sessionId: SESSION, state: 'working', status: 'running', detail: 'the CLI reports busy' })
    } finally {
      tmp.cleanup()
    }
  })

  it('shows state, status, detail, the pending question as a card and the last messages', async () => {
    const f = recordedFixture('question-pending')
    const { code, out } = await inspect([f.transcript, '--registry', f.registry ?? ''])
    expect(code).toBe(0)
    expect(out).toContain('  state   question')
    expect(out).toContain('  status  waiting_for_input')
    expect(out).toContain('  detail  permission prompt')
    expect(out).toContain('┌─ question waiting for an answer · toolu_scripted_')
    expect(out).toContain('│ Which color do you prefer?')
    expect(out).toContain('│   1. Red — warm')
    expect(out).toContain('│   3. Other (type your own)')
    expect(out).toMatch(/#3 {2}\d\d:\d\d:\d\d {2}dialog {3} {2}question: Which color do you prefer\? {2}\(pending\)/)
  })

  it('a live spool dialog is a card marked live; a plan card holds the whole plan', async () => {
    const tmp = tempDir()
    try {
      const plan = `# Plan\n\n${Array.from({ length: 80 }, (_, i) => `${i + 1}. step ${i + 1}`).join('\n')}`
      const path = tmp.write('11111111-2222-4333-8444-555555555555.jsonl', transcript().prompt('plan').toolUse('p1', 'ExitPlanMode', { plan }).jsonl())
      const { out } = await inspect([path])
      expect(out).toContain('┌─ plan waiting for approval · p1')
      expect(out).toContain('│ 80. step 80')
      const f = recordedFixture('question-pending')
      // A transcript of the spool's session that does not show the dialog yet (the hook ran first).
      const session = f.transcript.slice(f.transcript.lastIndexOf('/') + 1)
      const live = await inspect([tmp.write(session, transcript().prompt('hi').text('hello').jsonl()), '--runtime-dir', f.signals ?? '', '--run-id', f.runId])
      expect(live.out).toContain('· live (hook spool)')
    } finally {
      tmp.cleanup()
    }
  })

  it('answered dialogs show their outcomes in the message list', async () => {
    const { out } = await inspect([recordedFixture('question-multi-select').transcript])
    expect(out).toContain('→ Red | Cherry, Apple')
    expect((await inspect([recordedFixture('plan-rejected').transcript])).out).toContain('→ rejected: Add tests first')
  })

  it('detects Claude Code by content and refuses other files (exit 1); usage errors exit 2', async () => {
    const tmp = tempDir()
    try {
      expect((await detectAgent(recordedFixture('plain-turn').transcript))?.agent).toBe('claude-code')
      const rollout = tmp.write('rollout.jsonl', `${JSON.stringify({ timestamp: 'x', type: 'session_meta', payload: { id: 'a' } })}\n`)
      expect(await detectAgent(rollout)).toSatisfy((a: { agent: string } | undefined) => a === undefined || a.agent !== 'claude-code')
      const notes = await inspect([tmp.write('notes.txt', 'hello\n')])
      expect(notes.code).toBe(1)
      expect(notes.err).toContain('does not look like a transcript')
      expect((await inspect([tmp.write('forced.jsonl', 'garbage\n'), '--agent', 'claude-code'])).code).toBe(0)
      expect((await inspect([join(tmp.dir, 'gone.jsonl'), '--agent', 'claude-code'])).err).toBe(`chatrail inspect: ${join(tmp.dir, 'gone.jsonl')} does not exist; check the path (\`chatrail sessions --json\` lists every local session with its transcript path)\n`)
      for (const args of [[], ['a', 'b'], ['x', '--runtime-dir', 'd'], ['x', '--agent', 'nope'], ['x', '--last', '-1'], ['x', '--bogus']]) {
        expect((await inspect(args)).code, args.join(' ')).toBe(2)
      }
      expect((await inspect(['--help'])).out).toContain('usage: chatrail inspect')
    } finally {
      tmp.cleanup()
    }
  })

  it('runs as `chatrail inspect` through the command table', () => {
    const tmp = tempDir()
    try {
      const path = tmp.write('t.jsonl', transcript().prompt('ask').toolUse('q1', 'AskUserQuestion', askInput).jsonl())
      const result = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', '..', 'src', 'cli', 'main.ts'), 'inspect', path, '--json'], { encoding: 'utf8', timeout: 60_000 })
      expect(result.status, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toMatchObject({ agent: 'claude-code', state: 'question' })
    } finally {
      tmp.cleanup()
    }
  }, 60_000)
})
