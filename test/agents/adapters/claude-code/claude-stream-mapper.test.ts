import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { streamChunkSchema } from '../../../../src/contract/schemas.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { createClaudeStreamMapper, mapClaudeStream } from '../../../../src/agents/claude-code/adapter/claude-stream-mapper.js'
import type { JsonRecord } from '../../../../src/agents/process/json-value.js'
import { listCaptures, OWN_CLAUDE_CAPTURES, ownCapture, readCapture, SHARED_CLAUDE_CAPTURES, splitTurns } from '../support/captures.js'

const own = (name: string): JsonRecord[] => ownCapture(OWN_CLAUDE_CAPTURES, name)
const texts = (chunks: readonly StreamChunk[], type: StreamChunk['type'] = 'text'): string =>
  chunks.filter((chunk) => chunk.type === type).map((chunk) => chunk.content ?? '').join('')
const types = (chunks: readonly StreamChunk[]): string[] => chunks.map((chunk) => chunk.type)

function expectWellFormed(chunks: readonly StreamChunk[]): void {
  for (const chunk of chunks) expect(streamChunkSchema.safeParse(chunk).success, JSON.stringify(chunk)).toBe(true)
  const terminals = chunks.filter((chunk) => chunk.type === 'done' || chunk.type === 'error')
  expect(terminals.length).toBeLessThanOrEqual(1)
  if (terminals.length === 1) expect(chunks.at(-1)).toBe(terminals[0])
}

describe('claude stream mapper on our captures (CLI 2.1.197)', () => {
  it('streams thinking and text deltas and never counts the final assistant frames twice', () => {
    const events = own('text-thinking-partials')
    const chunks = mapClaudeStream(events)
    expectWellFormed(chunks)
    expect(texts(chunks)).toBe('Hello from Claude.')
    expect(texts(chunks, 'reasoning')).toBe('The user wants a greeting.')
    // The deltas really arrived in pieces (the server splits every block in two).
    expect(chunks.filter((chunk) => chunk.type === 'text').length).toBeGreaterThan(1)
    expect(types(chunks).slice(-2)).toEqual(['usage', 'done'])
    const init = events.find((event) => event.subtype === 'init')
    expect(chunks.at(-1)?.metadata?.sessionId).toBe(init?.session_id)
  })

  it('takes the text from the assistant frames when partial messages are off', () => {
    const chunks = mapClaudeStream(own('text-no-partials'))
    expectWellFormed(chunks)
    expect(types(chunks)).toEqual(['text', 'usage', 'done'])
    expect(texts(chunks)).toBe('Hello without partials.')
  })

  it('maps a Bash tool_use to a running tool_call when its frame arrives, then its tool_result with the output, between the texts', () => {
    const chunks = mapClaudeStream(own('tool-bash-then-text'))
    expectWellFormed(chunks)
    expect(texts(chunks)).toBe('I will write it.\n\nWrote note.txt.')
    const call = chunks.find((chunk) => chunk.type === 'tool_call')
    expect(call?.toolCall?.name).toBe('Bash')
    expect(JSON.parse(call?.toolCall?.args ?? '{}')).toEqual({ command: 'echo chatrail > note.txt && cat note.txt', description: 'Write note.txt' })
    expect(call?.toolCall?.result).toBeUndefined()
    expect(call?.metadata).toMatchObject({ providerExecuted: true, toolStatus: 'running' })
    const result = chunks.find((chunk) => chunk.type === 'tool_result')
    expect(result).toMatchObject({ content: 'chatrail', toolCall: { id: call?.toolCall?.id, result: 'chatrail' }, metadata: { isError: false, toolStatus: 'complete' } })
    expect(chunks.filter((chunk) => chunk.type === 'tool_call')).toHaveLength(1)
    const order = types(chunks)
    expect(order.indexOf('tool_call')).toBeLessThan(order.indexOf('tool_result'))
    expect(order.indexOf('tool_result')).toBeLessThan(order.lastIndexOf('text'))
  })

  it('turns an API error into exactly one error chunk and hides the synthetic "API Error" frame', () => {
    const chunks = mapClaudeStream(own('api-error-400'))
    expectWellFormed(chunks)
    expect(types(chunks)).toEqual(['error'])
    expect(chunks[0]?.metadata).toMatchObject({ apiErrorStatus: 400, code: 'CLAUDE_CODE_API_ERROR' })
    expect(chunks[0]?.metadata?.error).toBeInstanceOf(Error)
    expect(chunks[0]?.content).toMatch(/too long/i)
  })

  it('shows an answered AskUserQuestion as a tool call whose result holds the answers', () => {
    const chunks = mapClaudeStream(own('ask-user-question-answered'))
    expectWellFormed(chunks)
    const call = chunks.find((chunk) => chunk.type === 'tool_call')
    expect(call?.toolCall?.name).toBe('AskUserQuestion')
    expect(call?.toolCall?.result).toContain('"Which color should the button be?"="Red"')
    expect(call?.toolCall?.result).toContain('"Which extras?"="Icon, Shadow"')
    expect(texts(chunks)).toBe('Red with an icon and a shadow, then.')
  })

  it('marks a rejected plan and a denied permission as error results', () => {
    for (const [name, needle] of [['plan-rejected-with-feedback', 'the user said:\nKeep session.ts whole'], ['permission-denied', 'denied by the recorder']] as const) {
      const chunks = mapClaudeStream(own(name))
      expectWellFormed(chunks)
      const result = chunks.find((chunk) => chunk.type === 'tool_result')
      expect(result?.metadata?.isError, name).toBe(true)
      expect(result?.content, name).toContain(needle)
      expect(chunks.at(-1)?.type).toBe('done')
    }
  })

  it('keeps one session id across a resumed second turn', () => {
    const turns = splitTurns(own('resume-two-turns'), (event) => event.type === 'result')
    expect(turns).toHaveLength(2)
    const [first, second] = turns.map((turn) => mapClaudeStream(turn))
    expect(texts(first ?? [])).toBe('Remembered.')
    expect(texts(second ?? [])).toBe('apple')
    expect(second?.at(-1)?.metadata?.sessionId).toBe(first?.at(-1)?.metadata?.sessionId)
  })
})

describe('claude stream mapper properties', () => {
  const events = own('text-thinking-partials')
  const deltaIndexes = events.flatMap((event, index) =>
    event.type === 'stream_event' && (event.event as JsonRecord | undefined)?.type === 'content_block_delta' ? [index] : [],
  )

  it('yields the full text exactly once for any prefix of the deltas that arrived (lost partials are made up by the frame)', () => {
    fc.assert(
      fc.property(fc.nat({ max: deltaIndexes.length }), (kept) => {
        const dropped = new Set(deltaIndexes.slice(kept))
        const chunks = mapClaudeStream(events.filter((_, index) => !dropped.has(index)))
        expect(texts(chunks)).toBe('Hello from Claude.')
        expect(texts(chunks, 'reasoning')).toBe('The user wants a greeting.')
      }),
    )
  })

  it('never throws and keeps the terminal rule on arbitrary JSON objects interleaved with real events', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('type', 'subtype', 'message', 'event', 'result', 'is_error', 'session_id', 'parent_tool_use_id', 'content'), fc.jsonValue()), { maxLength: 20 }), (noise) => {
        const mapper = createClaudeStreamMapper()
        const chunks = [...noise, ...events].flatMap((event) => mapper.map(event as JsonRecord))
        expectWellFormed(chunks)
      }),
    )
  })
})

describe('claude stream mapper on the shared captures (other projects, CLI 2.0.21–2.1.258)', () => {
  const files = listCaptures(SHARED_CLAUDE_CAPTURES)
  it.skipIf(!existsSync(SHARED_CLAUDE_CAPTURES))('maps every shared capture to well-formed chunks (skipped: ../shared/fixtures is absent in a fresh clone)', () => {
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const chunks = mapClaudeStream(readCapture(join(SHARED_CLAUDE_CAPTURES, file)))
      expectWellFormed(chunks)
    }
  })

  it.skipIf(!existsSync(SHARED_CLAUDE_CAPTURES))('reads the text of a 2.1.7 query and the reasoning + text of a 2.1.258 tail (skipped without ../shared)', () => {
    const basic = mapClaudeStream(readCapture(join(SHARED_CLAUDE_CAPTURES, 'claude-agent-sdk-gleam/golden/basic_query.jsonl')))
    expect(types(basic)).toEqual(['text', 'usage', 'done'])
    expect(texts(basic)).toBe('4')
    const tail = mapClaudeStream(readCapture(join(SHARED_CLAUDE_CAPTURES, 'yepanywhere-captured-claude-basic-2026-09-12/live.tail-last-15.jsonl')))
    expect(texts(tail)).toBe('Continuation verified.')
    expect(texts(tail, 'reasoning')).toContain('I reply exactly "Continuation verified."')
  })

  it.skipIf(!existsSync(SHARED_CLAUDE_CAPTURES))('pairs every tool call of a long 2.0.21 run with its result (skipped without ../shared)', () => {
    const chunks = mapClaudeStream(readCapture(join(SHARED_CLAUDE_CAPTURES, 'ai-workflow-agent/issue-105-09_evaluation-agent_log_raw.jsonl')))
    const calls = chunks.filter((chunk) => chunk.type === 'tool_call')
    const results = chunks.filter((chunk) => chunk.type === 'tool_result')
    expect(calls.length).toBeGreaterThan(0)
    expect(results.map((chunk) => chunk.toolCall?.id)).toEqual(calls.map((chunk) => chunk.toolCall?.id))
    expect(calls.every((chunk) => chunk.toolCall?.name !== 'unknown')).toBe(true)
  })
})
