import { describe, expect, it } from 'vitest'
import { opencodeAdapter } from '../../../../src/agents/opencode/adapter/opencode-adapter.js'
import { permissionReplyBody, questionReplyBody } from '../../../../src/agents/opencode/adapter/dialog-reply.js'
import { createTurnMapper } from '../../../../src/agents/opencode/adapter/opencode-turn-mapper.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { events } from '../../opencode/fixture-files.js'
import type { Scenario } from '../../opencode/fixture-files.js'

/** The adapter's pure parts, on the recorded real event streams: no binary needed. */

function chunksOf(scenario: Scenario): StreamChunk[] {
  const list = events(scenario)
  const sessionId = String(list.find((event) => typeof event.properties.sessionID === 'string')?.properties.sessionID)
  const mapper = createTurnMapper(sessionId)
  return list.flatMap((event) => mapper.map(event))
}

describe('createTurnMapper on recorded streams', () => {
  it('a completed turn: streamed text deltas (never twice), usage, then done', () => {
    const chunks = chunksOf('turn-completes')
    expect(chunks.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content).join('')).toBe('Hello from OpenCode — café ✓')
    expect(chunks.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 12, totalTokens: 22 } },
      { type: 'done', metadata: { agent: 'opencode', sessionId: expect.stringMatching(/^ses_/) as unknown, finish: 'stop' } },
    ])
  })

  it('a tool run: one tool_call carrying its result, then tool_result, across two steps', () => {
    const chunks = chunksOf('permission-once')
    const calls = chunks.filter((chunk) => chunk.type === 'tool_call')
    expect(calls).toHaveLength(1)
    expect(calls[0]?.toolCall).toMatchObject({ name: 'bash', args: '{"command":"echo chatrail-ran-this","description":"Print a marker"}' })
    expect(chunks[chunks.indexOf(calls[0] as StreamChunk) + 1]).toMatchObject({ type: 'tool_result', metadata: { isError: false } })
    expect(chunks.find((chunk) => chunk.type === 'usage')?.usage?.totalTokens).toBe(44)
    expect(chunks.at(-1)?.type).toBe('done')
  })

  it('a rejected permission: the tool_result is an error; the turn still ends with done', () => {
    const chunks = chunksOf('permission-reject')
    expect(chunks.find((chunk) => chunk.type === 'tool_result')?.metadata).toMatchObject({ isError: true })
    expect(chunks.at(-1)).toMatchObject({ type: 'done', metadata: { finish: 'tool-calls' } })
  })

  it('an abort from elsewhere ends the stream as one error chunk naming it', () => {
    const chunks = chunksOf('aborted')
    expect(chunks.filter((chunk) => chunk.type === 'error')).toHaveLength(1)
    expect(chunks.at(-1)).toMatchObject({ type: 'error', metadata: { code: 'OPENCODE_ABORTED', errorName: 'MessageAbortedError' } })
  })

  it('ignores other sessions and anything after its terminal chunk', () => {
    const mapper = createTurnMapper('ses_mine')
    expect(mapper.map({ type: 'session.status', properties: { sessionID: 'ses_other', status: { type: 'busy' } } })).toEqual([])
    mapper.map({ type: 'session.status', properties: { sessionID: 'ses_mine', status: { type: 'busy' } } })
    expect(mapper.map({ type: 'session.status', properties: { sessionID: 'ses_mine', status: { type: 'idle' } } }).at(-1)?.type).toBe('done')
    expect(mapper.map({ type: 'session.status', properties: { sessionID: 'ses_mine', status: { type: 'idle' } } })).toEqual([])
    expect(mapper.finished()).toBe(true)
  })
})

describe('dialog answers → OpenCode reply bodies', () => {
  it('permissions: labels or OpenCode words; plan answers approve once or reject with feedback', () => {
    const pick = (chosen: string, otherText?: string) => ({ kind: 'question' as const, answers: [{ question: 'Allow bash?', chosen: [chosen], ...(otherText ? { otherText } : {}) }] })
    expect(permissionReplyBody('per_1', pick('Allow once'))).toEqual({ reply: 'once' })
    expect(permissionReplyBody('per_1', pick('always'))).toEqual({ reply: 'always' })
    expect(permissionReplyBody('per_1', pick('Reject', 'use git status instead'))).toEqual({ reply: 'reject', message: 'use git status instead' })
    expect(permissionReplyBody('per_1', { kind: 'plan', approved: true })).toEqual({ reply: 'once' })
    expect(permissionReplyBody('per_1', { kind: 'plan', approved: false, feedback: 'no' })).toEqual({ reply: 'reject', message: 'no' })
    expect(() => permissionReplyBody('per_1', pick('Maybe'))).toThrow(expect.objectContaining({ code: 'DIALOG_ANSWER_MISMATCH' }) as Error)
  })

  it('questions: chosen labels then the typed text, one array per question; Other is never sent', () => {
    expect(questionReplyBody('call_1', { kind: 'question', answers: [{ question: 'a', chosen: ['Red', 'Other'], otherText: 'Teal' }, { question: 'b', chosen: ['Yes'] }] }, 3)).toEqual({ answers: [['Red', 'Teal'], ['Yes'], []] })
    expect(() => questionReplyBody('call_1', { kind: 'plan', approved: true }, 1)).toThrow(expect.objectContaining({ code: 'DIALOG_ANSWER_MISMATCH' }) as Error)
  })
})

describe('opencodeAdapter options', () => {
  it.each([
    [{ cwd: '' }, '`cwd` is required'],
    [{ cwd: '/tmp', baseUrl: 'ftp://x' }, '`baseUrl`'],
    [{ cwd: '/tmp', sessionId: '--help' }, '`sessionId`'],
    [{ cwd: '/tmp', model: 'sonnet' }, '`model`'],
    [{ cwd: '/tmp', graceMs: -1 }, '`graceMs`'],
  ])('%j is refused when the adapter is made, naming the option', (options, named) => {
    expect(() => opencodeAdapter(options)).toThrow(expect.objectContaining({ code: 'INVALID_ADAPTER_OPTION', message: expect.stringContaining(named) as unknown }) as Error)
  })

  it('a missing binary is one OPENCODE_NOT_FOUND error chunk with the install hint', async () => {
    const adapter = opencodeAdapter({ cwd: '/tmp', bin: '/nonexistent/opencode' })
    const chunks: StreamChunk[] = []
    for await (const chunk of adapter.createSource({ messages: [{ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(0) }] }).stream()) chunks.push(chunk)
    expect(chunks).toHaveLength(1)
    expect(chunks[0]).toMatchObject({ type: 'error', metadata: { code: 'OPENCODE_NOT_FOUND' } })
    expect(chunks[0]?.content).toContain('npm install -g opencode-ai')
    await adapter.dispose()
  })
})
