import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { ChatrailError } from '../../../../src/contract/errors.js'
import { codexAdapter } from '../../../../src/agents/codex/adapter/codex-adapter.js'
import { listDescendantPids } from '../../../../src/agents/process/kill-process-tree.js'
import { respond, run } from '../../../support/openai-server.js'
import { startCodexRig } from '../support/codex-harness.js'
import type { CodexRig } from '../support/codex-harness.js'
import { alive, collect, descendantsRunning, typesOf, userMessage, waitForSnapshot, waitUntil } from '../support/harness.js'

/** A survivor as its command line and `/proc` stat (state, parent, group, session), for the failure message. */
function describeProcess(pid: number): string {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return `${pid} ${cmdline} [${stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(0, 4).join(' ')}]`
  } catch {
    return `${pid} (gone while described)`
  }
}

/** How turns of the real Codex CLI fail: abort, API errors, a missing binary, a CLI that exits early. */

let rig: CodexRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('codexAdapter failures (real CLI)', () => {
  it('abort() mid-turn ends the CLI and the command it was running: no process of the turn survives', async () => {
    rig = await startCodexRig([respond(run('sleep 319'))])
    // Processes this worker had before the turn (e.g. esbuild's service) are not the turn's.
    const before = new Set(listDescendantPids(process.pid))
    const source = rig.adapter.createSource({ messages: [userMessage('Wait')] })
    const iterator = source.stream()
    const rest = collect({ stream: () => iterator, abort: () => undefined })
    await waitUntil(() => descendantsRunning('sleep 319').length > 0, 45_000, 'the command running sleep 319')
    const tree = listDescendantPids(process.pid).filter((pid) => !before.has(pid))
    expect(tree.length).toBeGreaterThanOrEqual(2)
    const started = Date.now()
    source.abort()
    expect(await rest).toEqual([])
    expect(Date.now() - started).toBeLessThan(1500 + 3000)
    expect(alive(tree).map(describeProcess)).toEqual([])
    expect(descendantsRunning('sleep 319')).toEqual([])
    await waitForSnapshot(rig.adapter.agentRunState, (snapshot) => snapshot.status === 'stopped', 5000)
  }, 90_000)

  it('an API error (turn.failed) is exactly one error chunk with the provider message; the rollout says failed', async () => {
    // request_max_retries = 1 in the workspace config: the CLI asks twice before it gives up.
    const refusal = { type: 'http_error' as const, status: 400, message: 'the scripted model says no' }
    rig = await startCodexRig([refusal, refusal])
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Say hello')] }))
    expect(typesOf(chunks)).toEqual(['error'])
    expect(chunks[0]?.content).toBe('Codex turn failed: the scripted model says no')
    expect(chunks[0]?.metadata?.code).toBe('CODEX_TURN_FAILED')
    expect(ChatrailError.isInstance(chunks[0]?.metadata?.error)).toBe(true)
    const failed = await waitForSnapshot(rig.adapter.agentRunState, (snapshot) => snapshot.status === 'failed', 5000)
    expect(failed.state).toBe('needs_input')
  }, 60_000)

  it('a missing binary is one error chunk with an install hint', async () => {
    const adapter = codexAdapter({ cwd: process.cwd(), bin: 'codex-not-installed-chatrail-test' })
    const chunks = await collect(adapter.createSource({ messages: [userMessage('hi')] }))
    expect(typesOf(chunks)).toEqual(['error'])
    expect(chunks[0]?.metadata?.code).toBe('CODEX_NOT_FOUND')
    expect(chunks[0]?.content).toContain('npm install -g @openai/codex')
  })

  it('a CLI that exits non-zero before turn.completed is one error chunk with the tail of its stderr', async () => {
    rig = await startCodexRig([], { extraArgs: ['--no-such-chatrail-flag'] })
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('hi')] }))
    expect(typesOf(chunks)).toEqual(['error'])
    expect(chunks[0]?.metadata?.code).toBe('CODEX_EXITED')
    expect(chunks[0]?.metadata?.exitCode).not.toBe(0)
    expect(chunks[0]?.content).toContain('--no-such-chatrail-flag')
  }, 60_000)

  it('bad options are refused when the adapter is made, naming the option and the fix', () => {
    expect(() => codexAdapter({ cwd: '' })).toThrow(/`cwd` is required/)
    expect(() => codexAdapter({ cwd: '.', threadId: '--last' })).toThrow(/`threadId` is not a Codex thread id/)
    // @ts-expect-error a sandbox mode the CLI does not know
    expect(() => codexAdapter({ cwd: '.', sandbox: 'none' })).toThrow(/`sandbox` is not one of read-only/)
    expect(() => codexAdapter({ cwd: '.', codexHome: '' })).toThrow(/`codexHome` is empty/)
  })
})
