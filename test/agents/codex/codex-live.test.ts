import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRolloutTail, locateRollout, readChat } from '../../../src/agents/codex/index.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { codexAvailable, createCodexWorkspace, startCodexExec, waitForRollout } from '../../support/codex-cli.js'
import { functionOutputs, respond, run, say, startOpenAIServer, think } from '../../support/openai-server.js'
import { recordScenario } from './codex-scenarios.js'

/**
 * The reader against the real Codex CLI (node_modules/.bin/codex) and the scripted Responses
 * server, on fresh files. About 20–30 s in all on a loaded 2-core machine.
 */
const read = (path: string): Promise<AgentChat> => readChat({ runId: '', runtimeDir: '', transcriptPath: path })
const live = describe.skipIf(!codexAvailable())

live('codex live (real CLI; skipped when node_modules/.bin/codex is not installed)', () => {
  it('a failing command: the CLI really runs it, the chip is error, the turn completes', { timeout: 60_000 }, async () => {
    const recording = await recordScenario('failing-command')
    expect(recording.problems).toEqual([])
    expect(recording.exitCodes).toEqual([0])
    const chat = await readRecorded(recording.rollout)
    expect(chat.messages.find((message) => message.tool)?.tool).toMatchObject({ name: 'exec_command', status: 'error' })
    expect([chat.state, chat.status]).toEqual(['needs_input', 'completed'])
  })

  it('SIGINT mid-command: turn_aborted → stopped, interrupted', { timeout: 60_000 }, async () => {
    const recording = await recordScenario('aborted-turn')
    const chat = await readRecorded(recording.rollout)
    expect([chat.state, chat.status, chat.detail]).toEqual(['needs_input', 'stopped', 'interrupted'])
  })

  it('an API error fails the turn; exec resume appends a second turn to the same rollout', { timeout: 60_000 }, async () => {
    const failedChat = await readRecorded((await recordScenario('api-error')).rollout)
    expect(failedChat.status).toBe('failed')
    const resumedChat = await readRecorded((await recordScenario('resume')).rollout)
    expect(resumedChat.messages.filter((message) => message.role === 'user').map((message) => message.text)).toEqual(['What is 2 + 2?', '-now show the notes, café ✓'])
    expect(resumedChat.state).toBe('needs_input')
  })

  it('tails a live rollout: locate finds it, the tail sees working with a running command, then completed, equal to a full read', { timeout: 60_000 }, async () => {
    const server = await startOpenAIServer([respond(think('Checking the clock'), say('Waiting a moment.', 'commentary'), run('sleep 3 && echo done')), respond(say('Finished.', 'final_answer'))])
    const workspace = createCodexWorkspace({ baseUrl: server.baseUrl })
    try {
      const started = startCodexExec({ workspace, prompt: 'wait, then say finished', timeoutMs: 40_000 })
      await waitForRollout(workspace, (text) => text.includes('"type":"function_call"'))
      const located = await locateRollout({ cwd: workspace.cwd, home: workspace.home, codexHome: workspace.codexHome })
      expect(located?.path).toBe(workspace.rollouts()[0])
      const tail = createRolloutTail(located?.path ?? '')
      const during = await tail.read()
      expect(during.sessionId).toBe(located?.sessionId)
      expect(during.state).toBe('working')
      const result = await started.done
      expect(result.exitCode).toBe(0)
      const after = await tail.read()
      expect([after.state, after.status]).toEqual(['needs_input', 'completed'])
      expect(after.messages.slice(0, during.messages.length).map((message) => [message.seq, message.kind])).toEqual(during.messages.map((message) => [message.seq, message.kind]))
      expect(after).toEqual(await read(located?.path ?? ''))
      // The command really ran: its output went back to the model and into the chip.
      expect(functionOutputs(server.requests[1] ?? { method: '', path: '', body: undefined, scriptIndex: -1 })[0]?.output).toContain('done')
      expect(after.messages.find((message) => message.tool)?.tool).toMatchObject({ status: 'ok', output: 'done\n' })
      expect(result.threadId).toBe(after.sessionId)
    } finally {
      workspace.cleanup()
      await server.close()
    }
  })
})

/** Reads a recorded rollout from a temp file (the scenario's own workspace is gone by now). */
async function readRecorded(rollout: string): Promise<AgentChat> {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-codex-live-'))
  try {
    const path = join(dir, 'rollout.jsonl')
    writeFileSync(path, rollout)
    return await read(path)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
