import { describe, expect, it } from 'vitest'
import { mapClaudeStream } from '../../../../src/agents/claude-code/adapter/claude-stream-mapper.js'
import type { JsonRecord } from '../../../../src/agents/process/json-value.js'

/** Issue 35: Claude Code background Bash in the stream (event shapes as 2.1.197 prints them). */

const S = '09d5f277-9ee9-4a02-a337-d72396567ac2'
const LAUNCH = 'Command running in background with ID: b8c8my4mq. Output is being written to: /tmp/x/tasks/b8c8my4mq.output.'
const toolUse: JsonRecord = {
  type: 'assistant',
  session_id: S,
  parent_tool_use_id: null,
  message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'sleep 20', run_in_background: true } }] },
}
const launched: JsonRecord = {
  type: 'user',
  session_id: S,
  parent_tool_use_id: null,
  message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: LAUNCH, is_error: false }] },
  tool_use_result: { stdout: '', stderr: '', interrupted: false, backgroundTaskId: 'b8c8my4mq' },
}
const answer: JsonRecord = { type: 'assistant', session_id: S, parent_tool_use_id: null, message: { id: 'msg_2', role: 'assistant', content: [{ type: 'text', text: 'Started it.' }] } }
const result: JsonRecord = { type: 'result', subtype: 'success', is_error: false, result: 'Started it.', session_id: S, usage: { input_tokens: 20, output_tokens: 24 } }
const notified = (status: string): JsonRecord => ({ type: 'system', subtype: 'task_notification', task_id: 'b8c8my4mq', tool_use_id: 'toolu_1', status, summary: 'sleep', session_id: S })

describe('claude stream mapper: background commands', () => {
  it('running from the tool_use, still running after the launch, and at result a final state with the result unknown', () => {
    const chunks = mapClaudeStream([{ type: 'system', subtype: 'init', session_id: S }, toolUse, { type: 'system', subtype: 'task_started', task_id: 'b8c8my4mq', tool_use_id: 'toolu_1' }, launched, answer, result])
    expect(chunks.map((chunk) => [chunk.type, chunk.metadata?.toolStatus])).toEqual([
      ['tool_call', 'running'],
      ['tool_result', 'running'],
      ['text', undefined],
      ['tool_result', 'running'],
      ['usage', undefined],
      ['done', undefined],
    ])
    expect(chunks[1]).toMatchObject({ content: LAUNCH, toolCall: { id: 'toolu_1', name: 'Bash', result: LAUNCH }, metadata: { background: true, taskId: 'b8c8my4mq' } })
    expect(chunks[3]?.metadata).toMatchObject({ resultUnknown: true, status: 'unfinished' })
    expect(chunks[3]?.content).toMatch(/^Command running in background[\s\S]*Still running when the turn ended.*result is unknown/)
  })

  it('a notification before the turn ends settles it (completed → complete, killed → error), and nothing is left unknown', () => {
    for (const [status, toolStatus] of [['completed', 'complete'], ['killed', 'error']] as const) {
      const chunks = mapClaudeStream([toolUse, launched, notified(status), answer, result])
      const results = chunks.filter((chunk) => chunk.type === 'tool_result')
      expect(results.map((chunk) => chunk.metadata?.toolStatus), status).toEqual(['running', toolStatus])
      expect(results[1]?.metadata?.taskStatus).toBe(status)
      expect(chunks.some((chunk) => chunk.metadata?.resultUnknown === true)).toBe(false)
    }
  })

  it('a failed turn still ends its open tools before the error chunk', () => {
    const chunks = mapClaudeStream([toolUse, { type: 'result', subtype: 'error_max_turns', is_error: true, session_id: S }])
    expect(chunks.map((chunk) => chunk.type)).toEqual(['tool_call', 'tool_result', 'error'])
    expect(chunks[1]?.metadata).toMatchObject({ resultUnknown: true })
  })
})
