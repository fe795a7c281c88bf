import { describe, expect, it } from 'vitest'
import { mapCodexStream } from '../../../../src/agents/codex/adapter/codex-stream-mapper.js'
import type { JsonRecord } from '../../../../src/agents/process/json-value.js'
import { streamChunkSchema } from '../../../../src/contract/schemas.js'
import { createChatController } from '../../../../src/controller/create-chat-controller.js'
import { scriptedAdapter } from '../../../../src/testing/scripted-adapter.js'

/**
 * Issue 35: a tool that started is always visible. `codex exec --json` 0.171.0 prints
 * `item.started` for a command that outlives the model's step and never its `item.completed`
 * (the event shapes below are the real CLI's, from the live test's run).
 */

const THREAD = '01a23565-9def-7760-a4f9-b2a4e88196a7'
const started = (id: string, command: string): JsonRecord => ({
  type: 'item.started',
  item: { id, type: 'command_execution', command, aggregated_output: '', exit_code: null, status: 'in_progress' },
})
const completed = (id: string, command: string, output: string, exitCode: number): JsonRecord => ({
  type: 'item.completed',
  item: { id, type: 'command_execution', command, aggregated_output: output, exit_code: exitCode, status: exitCode === 0 ? 'completed' : 'failed' },
})
const head: JsonRecord[] = [{ type: 'thread.started', thread_id: THREAD }, { type: 'turn.started' }]
const message = (id: string, text: string): JsonRecord => ({ type: 'item.completed', item: { id, type: 'agent_message', text } })
const turnCompleted: JsonRecord = { type: 'turn.completed', usage: { input_tokens: 240, cached_input_tokens: 0, output_tokens: 60 } }
const SLEEP = "/bin/bash -lc 'sleep 20; echo finished'"

describe('codex stream mapper: tools that outlive the turn (issue 35)', () => {
  it('shows a command at item.started and, when the turn ends first, ends it with a result-unknown tool_result', () => {
    const chunks = mapCodexStream([...head, started('item_0', SLEEP), message('item_1', 'Started it; moving on.'), turnCompleted])
    for (const chunk of chunks) expect(streamChunkSchema.safeParse(chunk).success, JSON.stringify(chunk)).toBe(true)
    expect(chunks.map((chunk) => chunk.type)).toEqual(['tool_call', 'text', 'tool_result', 'usage', 'done'])
    const id = `${THREAD}:1:item_0`
    expect(chunks[0]).toMatchObject({ toolCall: { id, name: 'command_execution' }, metadata: { providerExecuted: true, toolStatus: 'running', executedBy: 'codex' } })
    expect(JSON.parse(chunks[0]?.toolCall?.args ?? '{}')).toEqual({ command: SLEEP })
    expect(chunks[0]?.toolCall?.result).toBeUndefined()
    expect(chunks[2]?.toolCall).toMatchObject({ id, name: 'command_execution' })
    expect(chunks[2]?.metadata).toMatchObject({ resultUnknown: true, toolStatus: 'error', isError: true, status: 'unfinished', exitCode: null })
    expect(chunks[2]?.content).toMatch(/still running when the turn ended.*result is unknown/)
    expect(chunks[2]?.toolCall?.result).toBe(chunks[2]?.content)
  })

  it('a command that completes in the turn: one tool_call at its start, one tool_result with the output, nothing at the end', () => {
    const chunks = mapCodexStream([
      ...head,
      started('item_0', 'echo hi'),
      { type: 'item.updated', item: { id: 'item_0', type: 'command_execution', command: 'echo hi', aggregated_output: 'h', exit_code: null, status: 'in_progress' } },
      completed('item_0', 'echo hi', 'hi\n', 0),
      message('item_1', 'Done.'),
      turnCompleted,
    ])
    expect(chunks.map((chunk) => chunk.type)).toEqual(['tool_call', 'tool_result', 'text', 'usage', 'done'])
    expect(chunks[1]).toMatchObject({ content: 'hi\n', toolCall: { result: 'hi\n' }, metadata: { toolStatus: 'complete', exitCode: 0, isError: false } })
    expect(chunks[1]?.metadata?.resultUnknown).toBeUndefined()
  })

  it('a failing command ends error; only the tools still open get a final state, before turn.failed’s error', () => {
    const chunks = mapCodexStream([
      ...head,
      started('item_0', 'false'),
      completed('item_0', 'false', '', 1),
      started('item_1', SLEEP),
      { type: 'turn.failed', error: { message: 'stream disconnected' } },
    ])
    expect(chunks.map((chunk) => [chunk.type, chunk.metadata?.toolStatus])).toEqual([
      ['tool_call', 'running'],
      ['tool_result', 'error'],
      ['tool_call', 'running'],
      ['tool_result', 'error'],
      ['error', undefined],
    ])
    expect(chunks[1]?.metadata?.resultUnknown).toBeUndefined()
    expect(chunks[3]?.metadata?.resultUnknown).toBe(true)
  })

  it('the controller records the call once: running at its start, then its result or the unknown final state', async () => {
    const fast = mapCodexStream([...head, started('item_0', 'echo hi'), completed('item_0', 'echo hi', 'hi\n', 0), message('item_1', 'Done.'), turnCompleted])
    const slow = mapCodexStream([...head, started('item_0', SLEEP), message('item_1', 'Moving on.'), turnCompleted], { turn: 2 })
    const seen: string[] = []
    const controller = createChatController({ adapter: scriptedAdapter([fast, slow]) })
    controller.subscribe(() => {
      const calls = controller.getState().messages.at(-1)?.toolCalls ?? []
      const line = calls.map((call) => `${call.status}`).join(',')
      if (seen.at(-1) !== line) seen.push(line)
    })
    await controller.send('run echo')
    await controller.send('run sleep')
    const [, first, , second] = controller.getState().messages
    expect(controller.getState().messages).toHaveLength(4) // no tool-loop follow-up for either
    expect(first?.toolCalls).toEqual([{ id: `${THREAD}:1:item_0`, name: 'command_execution', args: { command: 'echo hi' }, status: 'complete', result: 'hi\n' }])
    expect(second?.toolCalls).toHaveLength(1)
    expect(second?.toolCalls?.[0]).toMatchObject({ id: `${THREAD}:2:item_0`, status: 'error' })
    expect(second?.toolCalls?.[0]?.result).toMatch(/result is unknown/)
    expect(second?.content).toBe('Moving on.')
    expect(seen).toContain('running')
  })
})
