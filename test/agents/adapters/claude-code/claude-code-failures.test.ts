import { afterEach, describe, expect, it } from 'vitest'
import { ChatrailError } from '../../../../src/contract/errors.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { claudeCodeAdapter } from '../../../../src/agents/claude-code/adapter/claude-code-adapter.js'
import { listDescendantPids } from '../../../../src/agents/process/kill-process-tree.js'
import { startClaudeRig } from '../support/claude-harness.js'
import type { ClaudeRig } from '../support/claude-harness.js'
import { alive, collect, descendantsRunning, textOf, typesOf, userMessage, waitForSnapshot, waitUntil } from '../support/harness.js'

/** How turns of the real Claude Code CLI fail: abort, API errors, a missing binary, a CLI that exits early. */

let rig: ClaudeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('claudeCodeAdapter failures (real CLI)', () => {
  it('abort() mid-turn ends the CLI and the command it was running: no process of the turn survives', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 317', description: 'Wait a long time' } }] }], { allowedTools: ['Bash'] })
    // Processes this worker had before the turn (e.g. esbuild's service) are not the turn's.
    const before = new Set(listDescendantPids(process.pid))
    const source = rig.adapter.createSource({ messages: [userMessage('Wait')] })
    const iterator = source.stream()
    const seen: StreamChunk[] = []
    const rest = (async () => {
      for await (const chunk of iterator) seen.push(chunk)
      return seen
    })()
    // Both: the command runs, and its tool_use line has reached the stream (abort() drops what is
    // still queued, and on a loaded CI run the sleep could start before the line was read).
    await waitUntil(() => descendantsRunning('sleep 317').length > 0 && seen.some((chunk) => chunk.type === 'tool_call'), 45_000, 'the Bash tool running sleep 317, shown in the stream')
    const tree = listDescendantPids(process.pid).filter((pid) => !before.has(pid))
    expect(tree.length).toBeGreaterThanOrEqual(2)
    const started = Date.now()
    source.abort()
    // The Bash showed as running from its start (issue 35); after abort() nothing more arrives.
    expect((await rest).map((chunk) => [chunk.type, chunk.toolCall?.name, chunk.metadata?.toolStatus])).toEqual([['tool_call', 'Bash', 'running']])
    expect(Date.now() - started).toBeLessThan(1500 + 3000)
    expect(alive(tree)).toEqual([])
    expect(descendantsRunning('sleep 317')).toEqual([])
    await waitForSnapshot(rig.adapter.agentRunState, (snapshot) => snapshot.status === 'stopped', 5000)
  }, 90_000)

  it('an API error ends the turn with exactly one error chunk carrying the message (no synthetic text)', async () => {
    rig = await startClaudeRig([{ error: { status: 400, type: 'invalid_request_error', message: 'the scripted model says no' } }])
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Say hello')] }))
    expect(typesOf(chunks)).toEqual(['error'])
    expect(chunks[0]?.content).toContain('the scripted model says no')
    expect(chunks[0]?.metadata).toMatchObject({ code: 'CLAUDE_CODE_API_ERROR', apiErrorStatus: 400 })
    expect(ChatrailError.isInstance(chunks[0]?.metadata?.error)).toBe(true)
    expect(textOf(chunks)).toBe('')
    await waitForSnapshot(rig.adapter.agentRunState, (snapshot) => snapshot.status === 'failed', 5000)
  }, 60_000)

  it('a missing binary is one error chunk with an install hint', async () => {
    const adapter = claudeCodeAdapter({ cwd: process.cwd(), bin: 'claude-not-installed-chatrail-test' })
    const chunks = await collect(adapter.createSource({ messages: [userMessage('hi')] }))
    expect(typesOf(chunks)).toEqual(['error'])
    expect(chunks[0]?.metadata?.code).toBe('CLAUDE_CODE_NOT_FOUND')
    expect(chunks[0]?.content).toContain('"claude-not-installed-chatrail-test" was not found')
    expect(chunks[0]?.content).toContain('npm install -g @anthropic-ai/claude-code')
    expect(adapter.agentRunState.getSnapshot()).toMatchObject({ state: 'needs_input', status: 'failed' })
  })

  it('a CLI that exits non-zero before its result is one error chunk with the tail of its stderr', async () => {
    rig = await startClaudeRig([], { extraArgs: ['--no-such-chatrail-flag'] })
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('hi')] }))
    expect(typesOf(chunks)).toEqual(['error'])
    expect(chunks[0]?.metadata).toMatchObject({ code: 'CLAUDE_CODE_EXITED', exitCode: 1 })
    expect(chunks[0]?.content).toContain('Claude Code exited with code 1 before the turn finished.')
    expect(chunks[0]?.content).toContain('--no-such-chatrail-flag')
  }, 60_000)

  it('bad options are refused when the adapter is made, naming the option and the fix', () => {
    expect(() => claudeCodeAdapter({ cwd: '' })).toThrow(/`cwd` is required/)
    expect(() => claudeCodeAdapter({ cwd: '.', sessionId: '--resume' })).toThrow(/`sessionId` is not a Claude session id/)
    // @ts-expect-error a permission mode the CLI does not know
    expect(() => claudeCodeAdapter({ cwd: '.', permissionMode: 'yolo' })).toThrow(/`permissionMode` is not one of acceptEdits/)
    const thrown = ((): unknown => {
      try {
        claudeCodeAdapter({ cwd: '.', allowedTools: [' '] })
        return undefined
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toMatchObject({ code: 'INVALID_ADAPTER_OPTION', hint: expect.stringContaining('Bash(git diff:*)') })
  })
})
