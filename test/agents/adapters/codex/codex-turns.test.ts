import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { functionOutputs, respond, run, say, think } from '../../../support/openai-server.js'
import { lastUserInput, startCodexRig } from '../support/codex-harness.js'
import type { CodexRig } from '../support/codex-harness.js'
import { collect, textOf, typesOf, userMessage } from '../support/harness.js'

/** Turns of the real Codex CLI (node_modules/.bin/codex) against the scripted Responses server. */

let rig: CodexRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('codexAdapter turns (real CLI)', () => {
  it('a text turn: reasoning and the agent message, then usage and done with the thread id', async () => {
    rig = await startCodexRig([respond(think('Greeting the user.'), say('Hello from Codex.'))])
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Say hello')] }))
    expect(typesOf(chunks)).toEqual(['reasoning', 'text', 'usage', 'done'])
    expect(textOf(chunks)).toBe('Hello from Codex.')
    expect(textOf(chunks, 'reasoning')).toBe('Greeting the user.')
    expect(chunks.at(-1)?.metadata?.threadId).toMatch(/^[0-9a-f-]{36}$/)
    expect(lastUserInput(rig.server.requests[0]?.body)).toBe('Say hello')
  }, 60_000)

  it('a tool turn: Codex runs the command itself; the call shows at its start, its output follows', async () => {
    rig = await startCodexRig([respond(run('printf chatrail > made-by-codex.txt && cat made-by-codex.txt')), respond(say('Wrote it.'))])
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Write a file')] }))
    expect(typesOf(chunks)).toEqual(['tool_call', 'tool_result', 'text', 'usage', 'done'])
    expect(chunks[0]?.toolCall?.name).toBe('command_execution')
    expect(chunks[0]?.metadata).toMatchObject({ providerExecuted: true, toolStatus: 'running' })
    expect(chunks[1]?.toolCall).toMatchObject({ id: chunks[0]?.toolCall?.id })
    expect(chunks[1]?.toolCall?.result).toContain('chatrail')
    expect(chunks[1]?.metadata).toMatchObject({ exitCode: 0, isError: false })
    expect(readFileSync(join(rig.workspace.cwd, 'made-by-codex.txt'), 'utf8')).toBe('chatrail')
    expect(functionOutputs(rig.server.requests[1] ?? { method: '', path: '', body: undefined, scriptIndex: -1 })[0]?.output).toContain('chatrail')
  }, 60_000)

  it('a second turn resumes the same thread (codex exec resume) and reports its own usage', async () => {
    rig = await startCodexRig([respond(say('Remembered: apple.')), respond(say('It was apple.'))])
    const first = await collect(rig.adapter.createSource({ messages: [userMessage('Remember apple')] }))
    const second = await collect(rig.adapter.createSource({ messages: [userMessage('Remember apple'), userMessage('Which word?')] }))
    expect(textOf(second)).toBe('It was apple.')
    expect(second.at(-1)?.metadata?.threadId).toBe(first.at(-1)?.metadata?.threadId)
    expect(JSON.stringify(rig.server.requests[1]?.body)).toContain('Remembered: apple.')
    expect(lastUserInput(rig.server.requests[1]?.body)).toBe('Which word?')
    // Codex reports the thread's running totals; the adapter reports the turn's share.
    expect(second.find((chunk) => chunk.type === 'usage')?.usage).toEqual(first.find((chunk) => chunk.type === 'usage')?.usage)
    expect(rig.workspace.rollouts()).toHaveLength(1)
  }, 90_000)

  it('a prompt starting with -- reaches the model as text and is never read as a flag', async () => {
    rig = await startCodexRig([respond(say('That was not a flag.'))])
    const prompt = '--version --help --dangerously-bypass-approvals-and-sandbox'
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage(prompt)] }))
    expect(chunks.at(-1)?.type).toBe('done')
    expect(lastUserInput(rig.server.requests[0]?.body)).toBe(prompt)
  }, 60_000)
})
