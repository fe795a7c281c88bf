import { describe, expect, it } from 'vitest'
import { ConfigError, deserializeMessages, serializeMessages, validateMemoryRecord } from '../../src/controller/index.js'
import type { Message } from '../../src/contract/index.js'

// validateMemoryRecord (issue 14 §2 item 6): AgentsKit's check of a stored `{ version: 1, messages }`
// record. It returns a clean copy holding only the contract's fields, or throws one ConfigError
// (AK_CONFIG_INVALID) whose message never repeats the input; the hint names where the record broke.

const message: Message = { id: 'm1', role: 'user', content: 'hello', status: 'complete', createdAt: new Date('2026-01-01T00:00:00Z') }
const rich: Message = {
  id: 'm2',
  role: 'assistant',
  content: 'see image',
  status: 'complete',
  createdAt: new Date('2026-01-01T00:00:01Z'),
  parts: [{ type: 'image', source: 'https://example.com/a.png', detail: 'high' }, { type: 'file', source: 'f', filename: 'a.txt' }],
  toolCalls: [{ id: 'c1', name: 'lookup', args: { query: ['hello'] }, result: 'found', status: 'complete' }],
  metadata: { nested: { safe: true }, usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
}

/** The thrown error, asserted to be the one ConfigError validateMemoryRecord throws. */
function rejectionOf(input: unknown): ConfigError {
  let thrown: unknown
  try {
    validateMemoryRecord(input)
  } catch (error) {
    thrown = error
  }
  expect(ConfigError.isInstance(thrown)).toBe(true)
  const error = thrown as ConfigError
  expect(error.code).toBe('AK_CONFIG_INVALID')
  expect(error.message).toBe('Serialized message record is invalid.')
  return error
}

const serialized = (overrides: Record<string, unknown>): unknown => ({
  version: 1,
  messages: [{ ...serializeMessages([message]).messages[0], ...overrides }],
})

describe('validateMemoryRecord', () => {
  it('accepts what serializeMessages writes and returns an equal copy that deserializes', () => {
    const record = serializeMessages([message, rich])
    const validated = validateMemoryRecord(record)
    expect(validated).toEqual(record)
    expect(validated).not.toBe(record)
    expect(validated.messages[1]?.metadata).not.toBe(record.messages[1]?.metadata)
    expect(deserializeMessages(validated)).toEqual([message, rich])
  })

  it('keeps only the contract\'s fields (unknown keys on messages, parts and tool calls are dropped)', () => {
    const record = {
      version: 1,
      extra: true,
      messages: [{
        ...serializeMessages([rich]).messages[0],
        future: 'drop',
        parts: [{ type: 'text', text: 'x', future: 'drop' }],
        toolCalls: [{ id: 'c1', name: 'lookup', args: { keep: true }, status: 'complete', future: 'drop' }],
      }],
    }
    const validated = validateMemoryRecord(record)
    expect(validated).not.toHaveProperty('extra')
    expect(validated.messages[0]).not.toHaveProperty('future')
    expect(validated.messages[0]?.parts?.[0]).toEqual({ type: 'text', text: 'x' })
    expect(validated.messages[0]?.toolCalls?.[0]).toEqual({ id: 'c1', name: 'lookup', args: { keep: true }, status: 'complete' })
    expect(validated.messages[0]?.metadata).toEqual(rich.metadata)
  })

  it('allows one object referenced twice (not a cycle)', () => {
    const shared = { safe: true }
    const record = serializeMessages([message])
    const withShared = { ...record, messages: [{ ...record.messages[0], metadata: { first: shared, second: shared } }] }
    expect(validateMemoryRecord(withShared).messages[0]?.metadata).toEqual({ first: { safe: true }, second: { safe: true } })
  })

  it.each([
    ['not an object', '(root)', null],
    ['an array', '(root)', []],
    ['another version', 'version', { version: 2, messages: [] }],
    ['no messages', 'messages', { version: 1 }],
    ['a role outside the contract', 'messages.0.role', serialized({ role: 'robot-with-a-secret' })],
    ['an empty id', 'messages.0.id', serialized({ id: '' })],
    ['a createdAt that is no date', 'messages.0.createdAt', serialized({ createdAt: 'not-a-date' })],
    ['an impossible day', 'messages.0.createdAt', serialized({ createdAt: '2026-02-30T00:00:00.000Z' })],
    ['a createdAt not written by toISOString', 'messages.0.createdAt', serialized({ createdAt: '2026-01-01T01:00:00+01:00' })],
    ['a Date instead of an ISO string', 'messages.0.createdAt', serialized({ createdAt: new Date('2026-01-01T00:00:00Z') })],
    ['a tool call without args', 'messages.0.toolCalls.0.args', serialized({ toolCalls: [{ id: 'c', name: 'n', status: 'complete' }] })],
    ['a number that JSON cannot hold', 'messages.0.metadata.n', serialized({ metadata: { n: Number.NaN } })],
    ['a function', 'messages.0.metadata.f', serialized({ metadata: { f: () => 'x' } })],
  ])('rejects %s, naming %s but never the input', (_label, where, input) => {
    const error = rejectionOf(input)
    expect(error.hint).toContain(where)
    expect(String(error)).not.toContain('secret')
  })

  it('rejects a cycle and deep nesting without overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(rejectionOf(serialized({ metadata: cyclic })).hint).toContain('messages.0.metadata.self')
    const deep: Record<string, unknown> = {}
    let cursor = deep
    for (let depth = 0; depth < 100_000; depth += 1) {
      const next: Record<string, unknown> = {}
      cursor.next = next
      cursor = next
    }
    expect(rejectionOf(serialized({ metadata: deep })).hint).toMatch(/nested deeper than 32/)
  })

  it('rejects getters and class instances instead of running or trusting them', () => {
    let reads = 0
    const accessor = {}
    Object.defineProperty(accessor, 'value', { enumerable: true, get: () => (reads += 1) })
    expect(rejectionOf(serialized({ metadata: accessor })).hint).toContain('messages.0.metadata.value')
    expect(reads).toBe(0)
    expect(rejectionOf(serialized({ metadata: { when: new Map() } })).hint).toContain('messages.0.metadata.when')
  })
})
