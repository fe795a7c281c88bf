import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliBundle } from '../support/cli-bundle.js'

/**
 * `chatrail inspect` run as the real CLI on real captures (test/fixtures/codex, claude-code): the
 * human view's words, times and working directory, and the friendly failures. `TZ=UTC` pins the
 * local times the view prints.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const codex = (name: string) => join('test', 'fixtures', 'codex', name)
const claude = (scenario: string, file: string) => join('test', 'fixtures', 'claude-code', scenario, file)
// the CLI built once and started with plain node (test/support/cli-bundle.ts): a tsx start per case cost 1–2 s
const cli = await cliBundle()
const inspect = (...args: string[]) =>
  spawnSync(process.execPath, [cli, 'inspect', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000, env: { ...process.env, TZ: 'UTC' } })

describe('chatrail inspect', () => {
  it('a missing file is one line naming the path, exit 1', () => {
    const result = inspect('no/such/transcript.jsonl')
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^chatrail inspect: no\/such\/transcript\.jsonl does not exist; check the path \(.*\)\n$/)
    expect(result.stderr).not.toContain('ENOENT')
  }, 30_000)

  it('a directory is one line naming it and what to pass instead, exit 1', () => {
    const result = inspect('test/fixtures/codex')
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/^chatrail inspect: test\/fixtures\/codex is a directory; pass one transcript file in it \(.*rollout-….jsonl.*\)\n$/)
  }, 30_000)

  it('a Codex API error (HTTP 400, recorded from the real CLI) shows its message, not the raw JSON body', () => {
    const result = inspect(codex('api-error-400.rollout.jsonl'))
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/\n {2}status {2}failed\n {2}detail {2}The scripted model refuses\.\n/)
    expect(result.stdout).toMatch(/lifecycle {2}Error: The scripted model refuses\.\n?$/)
    expect(result.stdout).not.toContain('{"error"')
    const json = JSON.parse(inspect(codex('api-error-400.rollout.jsonl'), '--json').stdout) as { detail: string }
    expect(json.detail).toBe('The scripted model refuses.')
  }, 30_000)

  it('counts in words: "1 message", "1 line"', () => {
    const result = inspect(codex('api-error.exec.jsonl'), '--agent', 'codex')
    expect(result.stdout).toContain('  read    4 lines, 331 bytes, 0 messages\n')
    const single = inspect(claude('streaming', '94e64470-1f38-4d0c-9510-061694906490.jsonl'))
    expect(single.stdout).toContain('  read    6 lines, 8597 bytes, 1 message\n')
    const one = inspect(codex('plain-turn.rollout.jsonl'), '--last', '1')
    expect(one.stdout).toContain('\nlast 1 of 2 messages:\n')
    expect(one.stdout).not.toMatch(/\b1 messages\b/)
  }, 30_000)

  it('the human view shows the working directory and the times: the span in the header, each message\'s time', () => {
    const result = inspect(claude('plan-pending', '311282ce-2195-4853-9396-97ace617e3b3.jsonl'))
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('\n  cwd     /tmp/chatrail-cc-1hvsbE/proj\n')
    expect(result.stdout).toContain('\n  time    2026-11-30 00:13:33 → 00:13:35\n')
    expect(result.stdout).toMatch(/\n {2}#4 {2}00:13:35 {2}assistant {2}The plan is ready\.\n/)
    const rollout = inspect(codex('plain-turn.rollout.jsonl'))
    expect(rollout.stdout).toMatch(/\n {2}cwd {5}\/\S+\n/)
    expect(rollout.stdout).toMatch(/\n {2}#1 {2}\d\d:\d\d:\d\d {2}user {7}Say hello\.\n/)
  }, 30_000)

  it('warns when lines went unread: a `codex exec --json` capture read as a rollout', () => {
    const result = inspect(codex('api-error.exec.jsonl'), '--agent', 'codex')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('\n  warning 4 of 4 lines are not Codex rollout lines and went unread (a `codex exec --json` capture is not a rollout: inspect the thread\'s rollout under ~/.codex/sessions instead)')
    // --json keeps stdout exactly the AgentChat; the warning goes to stderr.
    const json = inspect(codex('api-error.exec.jsonl'), '--agent', 'codex', '--json')
    expect(() => JSON.parse(json.stdout) as unknown).not.toThrow()
    expect(json.stderr).toContain('chatrail inspect: warning: 4 of 4 lines are not Codex rollout lines')
    // A real rollout, every line of it read, has no such warning.
    expect(inspect(codex('tool-run.rollout.jsonl')).stdout).not.toContain('went unread')
  }, 30_000)

  it('one line of a newer format is counted, without guessing that the file is something else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-inspect-'))
    try {
      const file = join(dir, 'rollout.jsonl')
      const recorded = readFileSync(join(root, codex('tool-run.rollout.jsonl')), 'utf8')
      writeFileSync(file, `${recorded}{"timestamp":"2026-11-30T00:09:30.000Z","type":"future_envelope","payload":{}}\n`)
      const lines = recorded.split('\n').filter((line) => line !== '').length + 1
      const result = inspect(file)
      expect(result.status).toBe(0)
      expect(result.stdout).toContain(`\n  warning 1 of ${lines} lines is not a Codex rollout line and went unread\n`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('usage errors are one line and a pointer to --help (an unknown --agent with a "did you mean")', () => {
    const result = inspect(codex('plain-turn.rollout.jsonl'), '--agent', 'claude')
    expect(result.status).toBe(2)
    expect(result.stderr).toBe('chatrail inspect: unknown --agent "claude" (did you mean "claude-code"?); known: claude-code, codex, opencode\nRun "chatrail inspect --help" for usage.\n')
    expect(inspect().stderr).toBe('chatrail inspect: no transcript file given\nRun "chatrail inspect --help" for usage.\n')
  }, 30_000)
})
