import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildCodexArgs } from '../../../../src/agents/codex/adapter/codex-args.js'

describe('buildCodexArgs', () => {
  it('starts a thread with `exec --json … -` and resumes it with `exec --json … resume -- <id> -`', () => {
    expect(buildCodexArgs({})).toEqual(['exec', '--json', '-'])
    expect(buildCodexArgs({ resumeThreadId: '01a229c8-6e81-78d0-b484-2ae67a183d52', model: 'gpt-5.5', sandbox: 'read-only', skipGitRepoCheck: true, extraArgs: ['--ephemeral'] })).toEqual([
      'exec',
      '--ephemeral',
      '--json',
      '--skip-git-repo-check',
      '--model=gpt-5.5',
      '--sandbox=read-only',
      'resume',
      '--',
      '01a229c8-6e81-78d0-b484-2ae67a183d52',
      '-',
    ])
  })

  it('refuses a thread id that is not a UUID (it comes from the CLI output) instead of passing it on', () => {
    for (const id of ['--dangerously-bypass-approvals-and-sandbox', '../../outside/secret', '', '01a229c8-6e81-78d0-b484-2ae67a183d52 --x']) {
      expect(() => buildCodexArgs({ resumeThreadId: id })).toThrow(/is not a UUID/)
    }
  })

  it('ends with "-" (the prompt is read from stdin) and never lets a configured value stand alone (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (model, sandbox) => {
        const args = buildCodexArgs({ model, sandbox })
        expect(args.at(-1)).toBe('-')
        expect(args[0]).toBe('exec')
        for (const arg of args.slice(1, -1)) expect(arg === '--json' || /^--(model|sandbox)=/.test(arg), arg).toBe(true)
      }),
    )
  })
})
