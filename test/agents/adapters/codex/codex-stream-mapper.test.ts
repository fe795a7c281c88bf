import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { streamChunkSchema } from '../../../../src/contract/schemas.js'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { createCodexStreamMapper, mapCodexStream, readableError } from '../../../../src/agents/codex/adapter/codex-stream-mapper.js'
import type { JsonRecord } from '../../../../src/agents/process/json-value.js'
import { listCaptures, OWN_CODEX_CAPTURES, ownCapture, readCapture, SHARED_CODEX_CAPTURES, splitTurns } from '../support/captures.js'

const own = (name: string): JsonRecord[] => ownCapture(OWN_CODEX_CAPTURES, name)
const texts = (chunks: readonly StreamChunk[], type: StreamChunk['type'] = 'text'): string =>
  chunks.filter((chunk) => chunk.type === type).map((chunk) => chunk.content ?? '').join('')
const types = (chunks: readonly StreamChunk[]): string[] => chunks.map((chunk) => chunk.type)
const isTerminalEvent = (event: JsonRecord): boolean => event.type === 'turn.completed' || event.type === 'turn.failed'

function expectWellFormed(chunks: readonly StreamChunk[]): void {
  for (const chunk of chunks) expect(streamChunkSchema.safeParse(chunk).success, JSON.stringify(chunk)).toBe(true)
  const terminals = chunks.filter((chunk) => chunk.type === 'done' || chunk.type === 'error')
  expect(terminals.length).toBeLessThanOrEqual(1)
  if (terminals.length === 1) expect(chunks.at(-1)).toBe(terminals[0])
}

describe('codex stream mapper on our captures (CLI 0.171.0)', () => {
  it('maps reasoning and the agent message, then usage and done with the thread id', () => {
    const events = own('text-reasoning')
    const chunks = mapCodexStream(events)
    expectWellFormed(chunks)
    expect(types(chunks)).toEqual(['reasoning', 'text', 'usage', 'done'])
    expect(texts(chunks, 'reasoning')).toBe('Greeting the user.')
    expect(texts(chunks)).toBe('Hello from Codex.')
    expect(chunks[2]?.usage).toEqual({ promptTokens: 120, completionTokens: 30, totalTokens: 150 })
    expect(chunks[3]?.metadata?.threadId).toBe(events[0]?.thread_id)
  })

  it('maps a command to a running tool_call at item.started, then its tool_result with the output, with turn-unique ids', () => {
    const chunks = mapCodexStream(own('command-then-text'), { turn: 2 })
    expectWellFormed(chunks)
    expect(types(chunks)).toEqual(['tool_call', 'tool_result', 'text', 'usage', 'done'])
    const call = chunks[0]?.toolCall
    expect(call?.name).toBe('command_execution')
    expect(JSON.parse(call?.args ?? '{}').command).toContain('echo chatrail-tool')
    expect(call?.result).toBeUndefined()
    expect(chunks[0]?.metadata).toMatchObject({ providerExecuted: true, toolStatus: 'running', status: 'in_progress' })
    expect(call?.id).toMatch(/^[0-9a-f-]{36}:2:item_0$/)
    expect(chunks[1]?.toolCall).toMatchObject({ id: call?.id, name: 'command_execution' })
    expect(chunks[1]?.toolCall?.result).toContain('chatrail-tool')
    expect(chunks[1]?.metadata).toMatchObject({ exitCode: 0, isError: false, toolStatus: 'complete' })
  })

  it('marks a failing command as an error result with its exit code; the turn still completes', () => {
    const chunks = mapCodexStream(own('failing-command'))
    expectWellFormed(chunks)
    expect(chunks[1]?.metadata).toMatchObject({ exitCode: 3, status: 'failed', isError: true })
    expect(chunks.at(-1)?.type).toBe('done')
  })

  it('turns turn.failed into one error chunk with the provider message (the top-level error before it is not a second one)', () => {
    const chunks = mapCodexStream(own('api-error'))
    expectWellFormed(chunks)
    expect(types(chunks)).toEqual(['error'])
    expect(chunks[0]?.content).toBe('Codex turn failed: The scripted model refuses.')
    expect(chunks[0]?.metadata?.error).toBeInstanceOf(Error)
  })

  it('reports per-turn usage of a resumed thread from the running totals', () => {
    const [first, second] = splitTurns(own('resume-two-turns'), isTerminalEvent)
    const mapper = createCodexStreamMapper({ turn: 1 })
    const one = (first ?? []).flatMap((event) => mapper.map(event))
    const baseline = mapper.threadUsage()
    expect(baseline).toEqual({ promptTokens: 120, completionTokens: 30, totalTokens: 150 })
    const two = mapCodexStream(second ?? [], { turn: 2, resumed: true, ...(baseline ? { usageBaseline: baseline } : {}) })
    expect(texts(one)).toBe('Remembered.')
    expect(texts(two)).toBe('apple')
    expect(two.find((chunk) => chunk.type === 'usage')?.usage).toEqual({ promptTokens: 120, completionTokens: 30, totalTokens: 150 })
    // Without a baseline a resumed turn can only report the thread total, and says so.
    const unknown = mapCodexStream(second ?? [], { turn: 2, resumed: true })
    expect(unknown.find((chunk) => chunk.type === 'usage')).toMatchObject({ usage: { promptTokens: 240 }, metadata: { usageScope: 'thread' } })
  })
})

describe('codex stream mapper rules', () => {
  const base = [{ type: 'thread.started', thread_id: '019a0000-0000-7000-8000-000000000001' }, { type: 'turn.started' }]
  const completed = { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 } }

  it('treats an error item and a lone top-level error as warnings, not failures', () => {
    const chunks = mapCodexStream([
      ...base,
      { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Model metadata for `x` not found.' } },
      { type: 'error', message: 'Re-connecting... 1/5' },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'fine' } },
      completed,
    ])
    expect(types(chunks)).toEqual(['text', 'usage', 'done'])
    expect(chunks.at(-1)?.metadata?.warnings).toEqual(['Model metadata for `x` not found.', 'Re-connecting... 1/5'])
  })

  it('maps file changes, MCP calls and web searches to tool calls, and keeps the latest todo list for done', () => {
    const chunks = mapCodexStream([
      ...base,
      { type: 'item.started', item: { id: 'item_0', type: 'todo_list', items: [{ text: 'a', completed: false }] } },
      { type: 'item.completed', item: { id: 'item_1', type: 'file_change', changes: [{ path: '/w/a.ts', kind: 'add' }, { path: '/w/b.ts', kind: 'update' }], status: 'completed' } },
      { type: 'item.completed', item: { id: 'item_2', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'zod' }, result: { content: [{ type: 'text', text: 'found' }] }, status: 'completed' } },
      { type: 'item.completed', item: { id: 'item_3', type: 'mcp_tool_call', server: 'docs', tool: 'fetch', arguments: {}, error: { message: 'timeout' }, status: 'failed' } },
      { type: 'item.completed', item: { id: 'item_4', type: 'web_search', query: 'chatrail' } },
      { type: 'item.updated', item: { id: 'item_0', type: 'todo_list', items: [{ text: 'a', completed: true }] } },
      { type: 'item.completed', item: { id: 'item_9', type: 'some_future_item' } },
      completed,
    ])
    expectWellFormed(chunks)
    const calls = chunks.filter((chunk) => chunk.type === 'tool_call').map((chunk) => [chunk.toolCall?.name, chunk.toolCall?.result])
    expect(calls).toEqual([
      ['file_change', 'add /w/a.ts\nupdate /w/b.ts'],
      ['docs.search', 'found'],
      ['docs.fetch', 'timeout'],
      ['web_search', 'Searched the web for: chatrail'],
    ])
    expect(chunks.filter((chunk) => chunk.type === 'tool_result').map((chunk) => chunk.metadata?.isError)).toEqual([false, false, true, false])
    expect(chunks.at(-1)?.metadata?.todoList).toEqual([{ text: 'a', completed: true }])
  })

  it('separates the agent messages of one turn by a blank line', () => {
    const chunks = mapCodexStream([
      ...base,
      { type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'First.' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Second.' } },
      completed,
    ])
    expect(texts(chunks)).toBe('First.\n\nSecond.')
  })

  it('shows the inner message of a JSON error body, and plain messages as they are', () => {
    expect(readableError('{"error":{"message":"quota exceeded","type":"x"}}')).toBe('quota exceeded')
    expect(readableError('stream disconnected')).toBe('stream disconnected')
  })

  it('never throws on arbitrary JSON objects and keeps the terminal rule', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('type', 'item', 'usage', 'error', 'thread_id', 'message'), fc.jsonValue()), { maxLength: 25 }), (noise) => {
        const mapper = createCodexStreamMapper()
        const chunks = [...noise, ...own('command-then-text')].flatMap((event) => mapper.map(event as JsonRecord))
        expectWellFormed(chunks)
      }),
    )
  })
})

describe('codex stream mapper on the shared exec captures (CLI ≈0.53)', () => {
  it.skipIf(!existsSync(SHARED_CODEX_CAPTURES))('maps every shared capture to a completed turn (skipped: ../shared/fixtures is absent in a fresh clone)', () => {
    const files = listCaptures(SHARED_CODEX_CAPTURES)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const chunks = mapCodexStream(readCapture(join(SHARED_CODEX_CAPTURES, file)))
      expectWellFormed(chunks)
      expect(chunks.at(-1)?.type, file).toBe('done')
      expect(texts(chunks).length, file).toBeGreaterThan(0)
    }
  })

  it.skipIf(!existsSync(SHARED_CODEX_CAPTURES))('keeps a mid-turn reconnect as a warning and counts every command and file change (skipped without ../shared)', () => {
    const chunks = mapCodexStream(readCapture(join(SHARED_CODEX_CAPTURES, 'exec-planning-commands-filechange-reconnect.jsonl')))
    const names = chunks.filter((chunk) => chunk.type === 'tool_call').map((chunk) => chunk.toolCall?.name)
    expect(names.filter((name) => name === 'command_execution')).toHaveLength(9)
    expect(names.filter((name) => name === 'file_change')).toHaveLength(1)
    expect(chunks.at(-1)?.metadata?.warnings).toEqual(['Re-connecting... 1/5'])
    const todo = mapCodexStream(readCapture(join(SHARED_CODEX_CAPTURES, 'exec-requirements-todolist.jsonl'))).at(-1)?.metadata?.todoList as { completed: boolean }[]
    expect(todo.length).toBeGreaterThan(1)
    expect(todo.every((item) => item.completed)).toBe(true)
  })
})
