import { describe, expect, it } from 'vitest'
import { createTurnMapper } from '../../../../src/agents/opencode/adapter/opencode-turn-mapper.js'
import type { OpencodeEvent } from '../../../../src/agents/opencode/sse-parser.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { events } from '../../opencode/fixture-files.js'

/**
 * Issue 35 for OpenCode: a tool shows from the moment its part is `running`, and a part still
 * `running` when the session goes idle ends with a stated final state instead of vanishing. Part
 * shapes as OpenCode 1.18.33 sends them (test/fixtures/opencode/permission-once).
 */

const S = 'ses_dcda640caffe9N6fbxUUCErf9h'
const status = (type: string): OpencodeEvent => ({ type: 'session.status', properties: { sessionID: S, status: { type } } })
const assistant: OpencodeEvent = { type: 'message.updated', properties: { sessionID: S, info: { id: 'msg_2', role: 'assistant', sessionID: S } } }
const toolPart = (state: Record<string, unknown>): OpencodeEvent => ({
  type: 'message.part.updated',
  properties: { sessionID: S, part: { type: 'tool', tool: 'bash', callID: 'toolu_1', id: 'prt_1', sessionID: S, messageID: 'msg_2', state } },
})
const input = { command: 'sleep 20', description: 'Sleep' }
const map = (list: OpencodeEvent[]): StreamChunk[] => {
  const mapper = createTurnMapper(S)
  return list.flatMap((event) => mapper.map(event))
}

describe('opencode turn mapper: tools that outlive the turn', () => {
  it('a running part shows as a running tool_call; still running at idle, it ends with the result unknown', () => {
    const chunks = map([status('busy'), assistant, toolPart({ status: 'pending', input: {} }), toolPart({ status: 'running', input, time: { start: 1 } }), status('idle')])
    expect(chunks.map((chunk) => [chunk.type, chunk.metadata?.toolStatus])).toEqual([
      ['tool_call', 'running'],
      ['tool_result', 'running'],
      ['done', undefined],
    ])
    expect(chunks[0]).toMatchObject({ toolCall: { id: 'toolu_1', name: 'bash', args: JSON.stringify(input) }, metadata: { providerExecuted: true, executedBy: 'opencode' } })
    expect(chunks[0]?.toolCall?.result).toBeUndefined()
    expect(chunks[1]).toMatchObject({ toolCall: { id: 'toolu_1' }, metadata: { resultUnknown: true, status: 'unfinished' } })
    expect(chunks[1]?.content).toMatch(/still running when the session went idle.*result is unknown/i)
  })

  it('a part that completes in the turn: one tool_call at running, one tool_result, nothing unknown', () => {
    const chunks = map([status('busy'), assistant, toolPart({ status: 'running', input }), toolPart({ status: 'running', input }), toolPart({ status: 'completed', input, output: 'done\n' }), status('idle')])
    expect(chunks.map((chunk) => chunk.type)).toEqual(['tool_call', 'tool_result', 'done'])
    expect(chunks[1]).toMatchObject({ content: 'done\n', toolCall: { result: 'done\n' }, metadata: { toolStatus: 'complete', isError: false } })
  })

  it('on the recorded tool run: the call comes before its result, once, and no final unknown state', () => {
    const list = events('permission-once')
    const sessionId = String(list.find((event) => typeof event.properties.sessionID === 'string')?.properties.sessionID)
    const mapper = createTurnMapper(sessionId)
    const chunks = list.flatMap((event) => mapper.map(event))
    const tools = chunks.filter((chunk) => chunk.type === 'tool_call' || chunk.type === 'tool_result')
    expect(tools.map((chunk) => [chunk.type, chunk.metadata?.toolStatus])).toEqual([
      ['tool_call', 'running'],
      ['tool_result', 'complete'],
    ])
    expect(tools[0]?.toolCall?.result).toBeUndefined()
  })
})
