import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readChat } from '../../../../src/agents/claude-code/read-chat.js'
import type { AgentChat, AgentTool } from '../../../../src/contract/agent-chat.js'
import { startClaudeRig } from '../support/claude-harness.js'
import type { ClaudeRig } from '../support/claude-harness.js'
import { collect, typesOf, userMessage } from '../support/harness.js'

/**
 * Issue 35 for Claude Code (real CLI 2.1.197, its own HOME): a Bash with `run_in_background: true`
 * returns at once with a task id ("Command running in background with ID: …"); the command runs on
 * while the model answers and the turn ends. The stream must show the tool from its start, keep it
 * running after the launch, and end it with a state that says the result is unknown; the
 * transcript reader must show the same tool, running.
 */

let rig: ClaudeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const bashChip = (chat: AgentChat): AgentTool | undefined => chat.messages.find((message) => message.tool?.name === 'Bash')?.tool

async function transcriptChat(rig: ClaudeRig, sessionId: string): Promise<AgentChat> {
  const file = readdirSync(rig.home.projectDir).find((name) => name === `${sessionId}.jsonl`) ?? ''
  return readChat({ runId: 'r', runtimeDir: '', transcriptPath: join(rig.home.projectDir, file) })
}

describe('claudeCodeAdapter: a background command that outlives the turn (real CLI)', () => {
  it('shows the Bash at its start, running after its launch, and ends it running with the result unknown', async () => {
    rig = await startClaudeRig(
      [
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 20; echo finished', description: 'Sleep in the background', run_in_background: true } }] },
        { content: [{ type: 'text', text: 'Started it in the background.' }] },
      ],
      { allowedTools: ['Bash'] },
    )
    const started = Date.now()
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Run the sleep in the background')] }))
    expect(Date.now() - started).toBeLessThan(20_000) // the turn did not wait for the sleep
    // Text streams in deltas (--include-partial-messages): their number is the CLI's business.
    expect(typesOf(chunks).filter((type, index, all) => type !== 'text' || all[index - 1] !== 'text')).toEqual(['tool_call', 'tool_result', 'text', 'tool_result', 'usage', 'done'])
    const [call, launch] = chunks
    const last = chunks.filter((chunk) => chunk.type === 'tool_result').at(-1)
    expect(call?.metadata).toMatchObject({ providerExecuted: true, toolStatus: 'running', executedBy: 'claude-code' })
    expect(JSON.parse(call?.toolCall?.args ?? '{}')).toMatchObject({ run_in_background: true })
    expect(launch?.toolCall?.id).toBe(call?.toolCall?.id)
    expect(launch?.content).toMatch(/^Command running in background with ID: \S+/)
    expect(launch?.metadata).toMatchObject({ toolStatus: 'running', background: true, taskId: expect.any(String) })
    expect(last?.toolCall?.id).toBe(call?.toolCall?.id)
    expect(last?.metadata).toMatchObject({ toolStatus: 'running', resultUnknown: true, status: 'unfinished' })
    expect(last?.content).toContain('Command running in background with ID:')
    expect(last?.content).toMatch(/Still running when the turn ended.*result is unknown/)

    const sessionId = String(chunks.at(-1)?.metadata?.sessionId)
    const chat = await transcriptChat(rig, sessionId)
    expect(bashChip(chat)).toMatchObject({ status: 'running' })
    expect(chat.status).toBe('completed')
  }, 60_000)

  it('a foreground Bash is unchanged: it starts, completes with its output, and the reader shows it ok', async () => {
    rig = await startClaudeRig(
      [{ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'printf fast-output', description: 'Print' } }] }, { content: [{ type: 'text', text: 'Printed.' }] }],
      { allowedTools: ['Bash'] },
    )
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Print it')] }))
    expect(typesOf(chunks).filter((type, index, all) => type !== 'text' || all[index - 1] !== 'text')).toEqual(['tool_call', 'tool_result', 'text', 'usage', 'done'])
    expect(chunks[1]).toMatchObject({ content: 'fast-output', metadata: { toolStatus: 'complete', isError: false } })
    expect(chunks.some((chunk) => chunk.metadata?.resultUnknown === true)).toBe(false)
    expect(bashChip(await transcriptChat(rig, String(chunks.at(-1)?.metadata?.sessionId)))).toMatchObject({ status: 'ok' })
  }, 60_000)
})
