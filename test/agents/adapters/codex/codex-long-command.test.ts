import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { readChat } from '../../../../src/agents/codex/read-chat.js'
import { createRolloutFold } from '../../../../src/agents/codex/rollout-fold.js'
import { ORPHANED_TOOL_OUTPUT } from '../../../../src/agents/process/orphaned-tools.js'
import type { AgentChat, AgentTool } from '../../../../src/contract/agent-chat.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { functionOutputs, respond, run, say } from '../../../support/openai-server.js'
import type { ScriptedItem } from '../../../support/openai-server.js'
import { startCodexRig } from '../support/codex-harness.js'
import type { CodexRig } from '../support/codex-harness.js'
import { descendantsRunning, userMessage, waitUntil } from '../support/harness.js'

/**
 * Issue 35 with the real Codex CLI (0.171.0): a command still running when the turn ends must not
 * vanish from the stream, and the rollout reader must say the same of it. The scripted model asks
 * for `sleep 20` with a 1 s yield (`exec_command`'s `yield_time_ms`) and answers as soon as Codex
 * hands back "Process running with session ID …", so `turn.completed` arrives while the command
 * runs: `codex exec --json` prints `item.started` for it and never `item.completed`. The rig gives
 * the CLI its own HOME, so no login profile of the machine can slow or change `bash -lc`.
 */

let rig: CodexRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const sleepCall = (cmd: string): ScriptedItem => ({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, yield_time_ms: 1000 }) })
const commandChip = (chat: AgentChat | undefined): AgentTool | undefined => chat?.messages.find((message) => message.kind === 'tool')?.tool

/**
 * Waits for Codex's last word: first for the process to exit (its own deadline: killing the
 * background command and writing the record can take long on a loaded machine, and a fixed 15 s for
 * both failed once in a fresh-clone CI run), then for the read after the exit, which the adapter
 * takes within a few polls of it.
 */
async function afterCodexExit(lastRead: () => boolean): Promise<void> {
  await waitUntil(() => descendantsRunning('codex').length === 0, 40_000, 'the Codex process to exit')
  await waitUntil(lastRead, 10_000, 'the last read after the exit')
}

async function rolloutChat(rig: CodexRig): Promise<AgentChat> {
  const path = rig.workspace.rollouts().at(-1) ?? ''
  return readChat({ runId: 'r', runtimeDir: '', transcriptPath: path })
}

describe('codexAdapter: a command that outlives the turn (real CLI)', () => {
  it('shows the command from its start and ends it as unknown; the rollout reader agrees', { timeout: 90_000 }, async () => {
    rig = await startCodexRig([respond(sleepCall('sleep 20; echo finished')), respond(say('Started it; moving on.'))])
    const started = Date.now()
    const chunks: StreamChunk[] = []
    for await (const chunk of rig.adapter.createSource({ messages: [userMessage('Run the sleep')] }).stream()) chunks.push(chunk)
    expect(Date.now() - started).toBeLessThan(20_000) // the turn did not wait for the sleep

    expect(chunks.map((chunk) => chunk.type)).toEqual(['tool_call', 'text', 'tool_result', 'usage', 'done'])
    const [call, , last] = chunks
    expect(call?.metadata).toMatchObject({ providerExecuted: true, toolStatus: 'running' })
    expect(JSON.parse(call?.toolCall?.args ?? '{}').command).toContain('sleep 20')
    expect(last?.toolCall?.id).toBe(call?.toolCall?.id)
    expect(last?.metadata).toMatchObject({ resultUnknown: true, toolStatus: 'error', status: 'unfinished' })
    expect(last?.content).toMatch(/still running when the turn ended.*result is unknown/)
    expect(chunks.filter((chunk) => chunk.type === 'tool_call')).toHaveLength(1)
    // What the model was told: the command was still running.
    expect(functionOutputs(rig.server.requests[1] ?? { method: '', path: '', body: undefined, scriptIndex: -1 })[0]?.output).toContain('Process running with session ID')

    // After the exit the live run state never shows the command running: Codex killed it on exit.
    await afterCodexExit(() => rig?.adapter.agentChat()?.state === 'needs_input' && commandChip(rig.adapter.agentChat())?.status !== 'running')
    expect(commandChip(rig.adapter.agentChat())).toMatchObject({ name: 'exec_command', status: 'error' })
    const chat = await rolloutChat(rig)
    expect(chat.status).toBe('completed')
    // Until Codex's own last word on it (0.171.0: `failed`, exit -1, written after
    // `task_complete`), through its yield ("Process running with session ID …") and the end of the
    // turn, the reader shows the command running: the rollout up to that line, folded.
    const lines = readFileSync(rig.workspace.rollouts().at(-1) ?? '', 'utf8').split('\n').filter((line) => line !== '')
    expect(lines.some((line) => line.includes('Process running with session ID'))).toBe(true)
    const lastWord = lines.findIndex((line) => line.includes('"type":"CommandExecution"'))
    if (lastWord === -1) {
      // Codex dropped that record (it logs "failed to record rollout items: thread … not found";
      // 2 of 8 runs here): the file shows the command running forever, and only the live state,
      // which knows the process is gone, ends it, result unknown (orphaned-tools.test.ts).
      expect(commandChip(chat)).toMatchObject({ name: 'exec_command', status: 'running' })
      expect(commandChip(rig.adapter.agentChat())?.output).toBe(ORPHANED_TOOL_OUTPUT)
      return
    }
    expect(commandChip(chat)).toMatchObject({ name: 'exec_command', status: 'error' })
    expect(lines[lastWord]).toMatch(/"status":"failed"/)
    expect(lines.slice(0, lastWord).some((line) => line.includes('"type":"task_complete"'))).toBe(true)
    const fold = createRolloutFold()
    lines.slice(0, lastWord).forEach((line, index) => fold.push(JSON.parse(line) as unknown, index + 1))
    expect(commandChip(fold.snapshot({ offset: 0, lines: lastWord }))).toMatchObject({ name: 'exec_command', status: 'running' })
  })

  it('a fast command is unchanged: started, then its result, and the reader shows it ok', async () => {
    rig = await startCodexRig([respond(run('printf fast-output')), respond(say('Ran it.'))])
    const chunks: StreamChunk[] = []
    for await (const chunk of rig.adapter.createSource({ messages: [userMessage('Run it')] }).stream()) chunks.push(chunk)
    expect(chunks.map((chunk) => chunk.type)).toEqual(['tool_call', 'tool_result', 'text', 'usage', 'done'])
    expect(chunks[1]?.toolCall?.id).toBe(chunks[0]?.toolCall?.id)
    expect(chunks[1]?.toolCall?.result).toContain('fast-output')
    expect(chunks[1]?.metadata).toMatchObject({ toolStatus: 'complete', exitCode: 0, isError: false })
    expect(chunks.some((chunk) => chunk.metadata?.resultUnknown === true)).toBe(false)
    await afterCodexExit(() => rig?.adapter.agentChat()?.state === 'needs_input')
    expect(commandChip(await rolloutChat(rig))).toMatchObject({ status: 'ok' })
  }, 90_000)
})
