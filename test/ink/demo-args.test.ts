import { describe, expect, it } from 'vitest'
import { defaultProbeTimeoutMs, demoHelp, parseDemoArgs } from '../../src/cli/demo/demo-args.js'

describe('parseDemoArgs', () => {
  it('probes by default and takes --agent in both spellings', () => {
    expect(parseDemoArgs([], {})).toEqual({ kind: 'run', agent: 'auto', probeTimeoutMs: defaultProbeTimeoutMs })
    expect(parseDemoArgs(['--agent', 'offline'], {})).toMatchObject({ agent: 'offline' })
    expect(parseDemoArgs(['--agent=codex', '--probe-timeout', '1500'], {})).toEqual({ kind: 'run', agent: 'codex', probeTimeoutMs: 1500 })
  })

  it('takes CHATRAIL_DEMO_AGENT as the default, and the flag wins', () => {
    expect(parseDemoArgs([], { CHATRAIL_DEMO_AGENT: 'offline' })).toMatchObject({ agent: 'offline' })
    expect(parseDemoArgs(['--agent', 'claude-code'], { CHATRAIL_DEMO_AGENT: 'offline' })).toMatchObject({ agent: 'claude-code' })
    expect(parseDemoArgs([], { CHATRAIL_DEMO_AGENT: 'auto' })).toMatchObject({ agent: 'auto' })
  })

  it('names the bad value and suggests the nearest one', () => {
    expect(parseDemoArgs(['--agent', 'claude'], {})).toEqual({
      kind: 'error',
      message: '--agent claude is not an agent (did you mean claude-code?); use one of claude-code, codex, opencode, offline',
    })
    expect(parseDemoArgs(['--agent'], {})).toEqual({ kind: 'error', message: '--agent needs a value: claude-code, codex, opencode, offline' })
    expect(parseDemoArgs([], { CHATRAIL_DEMO_AGENT: 'ofline' })).toMatchObject({ message: expect.stringContaining('CHATRAIL_DEMO_AGENT=ofline is not an agent (did you mean offline?)') })
    expect(parseDemoArgs(['--agnet', 'x'], {})).toEqual({ kind: 'error', message: 'unknown option "--agnet" (did you mean "--agent"?)' })
    expect(parseDemoArgs(['--agent', 'nope'], {})).toEqual({ kind: 'error', message: '--agent nope is not an agent; use one of claude-code, codex, opencode, offline' })
    expect(parseDemoArgs(['--probe-timeout', '-5'], {})).toMatchObject({ kind: 'error', message: expect.stringContaining('positive whole number') })
  })

  it('prints help for --help and -h, wherever they appear', () => {
    expect(parseDemoArgs(['--agent', 'offline', '--help'], {})).toEqual({ kind: 'help' })
    expect(parseDemoArgs(['-h'], {})).toEqual({ kind: 'help' })
    expect(demoHelp).toContain('--agent NAME')
    expect(demoHelp).toContain('Ctrl+T retry')
    expect(demoHelp).toContain('Ctrl+R search them')
    expect(demoHelp).toContain('Esc Esc edit your last message')
  })
})
