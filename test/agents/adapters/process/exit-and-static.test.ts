import { describe, expect, it } from 'vitest'
import { exitErrorChunk } from '../../../../src/agents/process/agent-exit-chunk.js'
import { childEnv } from '../../../../src/agents/process/child-env.js'
import { staticStreamSource } from '../../../../src/agents/process/static-stream-source.js'

const agent = { displayName: 'Claude Code', codePrefix: 'CLAUDE_CODE', installHint: 'Install it with `npm i -g x`.' }

describe('exitErrorChunk', () => {
  it('names the fix for a missing or non-executable binary', () => {
    const missing = exitErrorChunk({ kind: 'spawn-failed', code: 'ENOENT', message: 'spawn claude ENOENT', stderr: '' }, agent, 'claude')
    expect(missing).toMatchObject({ type: 'error', metadata: { code: 'CLAUDE_CODE_NOT_FOUND' } })
    expect(missing.content).toBe('The Claude Code CLI "claude" was not found (spawn ENOENT). Install it with `npm i -g x`. Or pass `bin` with the path to the executable.')
    const denied = exitErrorChunk({ kind: 'spawn-failed', code: 'EACCES', message: 'spawn ./claude EACCES', stderr: '' }, agent, './claude')
    expect(denied.content).toContain('Make "./claude" executable')
  })

  it('carries the exit code or signal and the tail of stderr', () => {
    const exited = exitErrorChunk({ kind: 'exited', code: 2, signal: null, stderr: 'error: unknown option' }, agent, 'claude')
    expect(exited.content).toBe('Claude Code exited with code 2 before the turn finished.\nerror: unknown option')
    expect(exited.metadata?.error).toBeInstanceOf(Error)
    const killed = exitErrorChunk({ kind: 'exited', code: null, signal: 'SIGKILL', stderr: '' }, agent, 'claude')
    expect(killed.content).toBe('Claude Code was killed by SIGKILL before the turn finished.')
  })
})

describe('staticStreamSource', () => {
  it('yields its chunks once; abort ends it early', async () => {
    const source = staticStreamSource([{ type: 'text', content: 'a' }, { type: 'done' }])
    const first: string[] = []
    for await (const chunk of source.stream()) first.push(chunk.type)
    const again: string[] = []
    for await (const chunk of source.stream()) again.push(chunk.type)
    expect(first).toEqual(['text', 'done'])
    expect(again).toEqual([])
    const aborted = staticStreamSource([{ type: 'text', content: 'a' }, { type: 'done' }])
    const iterator = aborted.stream()
    await iterator.next()
    aborted.abort()
    expect((await iterator.next()).done).toBe(true)
  })
})

describe('childEnv', () => {
  it('layers overrides over the base environment; undefined removes a variable', () => {
    expect(childEnv({ A: '2', B: undefined, C: '3' }, { A: '1', B: 'x', D: 'd' })).toEqual({ A: '2', C: '3', D: 'd' })
  })
})
