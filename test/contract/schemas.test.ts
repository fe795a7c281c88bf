import { describe, expect, it } from 'vitest'
import {
  contentPartSchema,
  memoryRecordSchema,
  messageSchema,
  serializeMessages,
  storedMessageSchema,
  streamChunkSchema,
  toolCallSchema,
} from '../../src/index.js'
import type { Message } from '../../src/index.js'

const message: Message = {
  id: 'm1',
  role: 'assistant',
  content: 'hi',
  status: 'complete',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  toolCalls: [{ id: 't', name: 'n', args: { a: 1 }, status: 'complete', result: 'r' }],
  parts: [{ type: 'text', text: 'hi' }, { type: 'image', source: 'x.png', detail: 'low' }],
  metadata: { anything: [1, 2] },
}

describe('contract schemas (untrusted input)', () => {
  it('accepts every chunk type and rejects unknown types and wrong field types', () => {
    for (const type of ['text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done'] as const) {
      expect(streamChunkSchema.safeParse({ type }).success).toBe(true)
    }
    expect(streamChunkSchema.safeParse({ type: 'text', content: 'x', metadata: { error: new Error('e') } }).success).toBe(true)
    expect(streamChunkSchema.safeParse({ type: 'mystery' }).success).toBe(false)
    expect(streamChunkSchema.safeParse({ type: 'text', content: 5 }).success).toBe(false)
    expect(streamChunkSchema.safeParse({ type: 'tool_call', toolCall: { id: 'a', name: 'b', args: { not: 'a string' } } }).success).toBe(false)
    expect(streamChunkSchema.safeParse({ type: 'usage', usage: { promptTokens: 1, completionTokens: 1 } }).success).toBe(false)
  })

  it('parses a live message (Date) and rejects bad roles, statuses and empty ids', () => {
    expect(messageSchema.parse(message)).toEqual(message)
    expect(messageSchema.safeParse({ ...message, createdAt: '2026-01-01T00:00:00Z' }).success).toBe(false)
    expect(messageSchema.safeParse({ ...message, role: 'robot' }).success).toBe(false)
    expect(messageSchema.safeParse({ ...message, status: 'done' }).success).toBe(false)
    expect(messageSchema.safeParse({ ...message, id: '' }).success).toBe(false)
  })

  it('parses stored messages with ISO createdAt and a version-1 memory record', () => {
    const record = serializeMessages([message])
    expect(memoryRecordSchema.parse(record)).toEqual(record)
    expect(storedMessageSchema.safeParse({ ...record.messages[0], createdAt: 'yesterday' }).success).toBe(false)
    expect(memoryRecordSchema.safeParse({ ...record, version: 2 }).success).toBe(false)
  })

  it('validates tool calls and content parts by their literal unions', () => {
    expect(toolCallSchema.safeParse({ id: 't', name: 'n', args: {}, status: 'requires_confirmation' }).success).toBe(true)
    expect(toolCallSchema.safeParse({ id: 't', name: 'n', args: {}, status: 'waiting' }).success).toBe(false)
    expect(contentPartSchema.safeParse({ type: 'file', source: 'a.pdf', filename: 'a.pdf' }).success).toBe(true)
    expect(contentPartSchema.safeParse({ type: 'image', source: 'a.png', detail: 'ultra' }).success).toBe(false)
    expect(contentPartSchema.safeParse({ type: 'text' }).success).toBe(false)
  })
})
