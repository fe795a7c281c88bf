import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { run } from '../../src/cli/demo.js'
import type { DemoIo } from '../../src/cli/demo.js'

function io(isTTY: boolean, env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d: Buffer) => (out += String(d)))
  stderr.on('data', (d: Buffer) => (err += String(d)))
  const stdin = Object.assign(new PassThrough(), { isTTY }) as unknown as NodeJS.ReadStream
  const value: DemoIo = { stdout, stderr, stdin, env, cwd: process.cwd() }
  return { value, out: () => out, err: () => err }
}

describe('chatrail demo (run)', () => {
  it('prints the help and exits 0', async () => {
    const term = io(false)
    expect(await run(['--help'], term.value)).toBe(0)
    expect(term.out()).toMatch(/^usage: chatrail demo \[--agent claude-code\|codex\|opencode\|offline\]/)
    expect(term.out()).toContain('Installed is not enough')
  })

  it('exits 2 with the problem and a pointer to --help on a bad argument', async () => {
    const term = io(true)
    expect(await run(['--agent', 'ofline'], term.value)).toBe(2)
    expect(term.err()).toBe('chatrail demo: --agent ofline is not an agent (did you mean offline?); use one of claude-code, codex, opencode, offline\nRun "chatrail demo --help" for usage.\n')
  })

  it('refuses to start without a terminal instead of failing inside Ink', async () => {
    const term = io(false)
    expect(await run(['--agent', 'offline'], term.value)).toBe(2)
    expect(term.err()).toContain('needs a terminal (stdin is not a TTY)')
    expect(term.out()).toBe('')
  })

  it('explains a forced agent that is not installed', async () => {
    const term = io(true, { PATH: '/nonexistent' })
    expect(await run(['--agent', 'codex'], term.value)).toBe(2)
    expect(term.err()).toBe(
      'chatrail demo: error[DEMO_AGENT_NOT_FOUND]: --agent codex: `codex` is not on PATH\n  hint: install Codex (npm i -g @openai/codex) or run with --agent offline\n',
    )
  })
})
