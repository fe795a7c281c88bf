import { describe, expect, it } from 'vitest'
import * as classic from 'zod'
import * as z from 'zod/mini'
import { inEnglish } from '../../src/contract/english-issues.js'
import {
  contentPartSchema,
  memoryRecordSchema,
  messageSchema,
  storedMessageSchema,
  streamChunkSchema,
  toolCallSchema,
} from '../../src/index.js'
import { deserializeMessages, serializeMessages } from '../../src/controller/index.js'
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

  it('are zod/mini schemas that compose with zod/mini and classic zod functions', () => {
    const transcript = z.strictObject({ chunks: z.array(streamChunkSchema).check(z.minLength(1)), last: z.optional(messageSchema) })
    expect(transcript.safeParse({ chunks: [{ type: 'text', content: 'hi' }], last: message }).success).toBe(true)
    expect(transcript.safeParse({ chunks: [] }).success).toBe(false)
    // chatrail/testing builds its classic-zod file schemas on streamChunkSchema.
    const classicList = classic.array(streamChunkSchema).min(1)
    expect(classicList.safeParse([{ type: 'done' }]).success).toBe(true)
    expect(classicList.safeParse([{ type: 'text', content: 5 }]).error?.issues[0]?.message).toBe('Invalid input: expected string, received number')
  })
})

describe('English issue messages', () => {
  // Stands in for a host app that configured another zod locale (or none, as zod/mini does).
  function withGlobalLocale<T>(run: () => T): T {
    const config = z.config()
    const saved = config.localeError
    z.config({ localeError: () => 'Ungültige Eingabe' })
    try {
      return run()
    } finally {
      z.config({ localeError: saved })
    }
  }

  it('inEnglish gives classic zod\'s English text per parse, whatever the global locale', () => {
    const issues = withGlobalLocale(() => [
      streamChunkSchema.safeParse({ type: 'text', content: 5 }, inEnglish).error?.issues[0]?.message,
      streamChunkSchema.safeParse({ type: 'mystery' }, inEnglish).error?.issues[0]?.message,
      messageSchema.safeParse({ ...message, id: '' }, inEnglish).error?.issues[0]?.message,
      storedMessageSchema.safeParse({ ...serializeMessages([message]).messages[0], createdAt: 'yesterday' }, inEnglish).error?.issues[0]?.message,
      contentPartSchema.safeParse({ type: 'sound' }, inEnglish).error?.issues[0]?.message,
    ])
    expect(issues).toEqual([
      'Invalid input: expected string, received number',
      'Invalid option: expected one of "text"|"tool_call"|"tool_result"|"reasoning"|"usage"|"error"|"done"',
      'Too small: expected string to have >=1 characters',
      'Invalid ISO datetime',
      "Invalid discriminator value. Expected 'text' | 'image' | 'audio' | 'video' | 'file' | 'component'",
    ])
    expect(withGlobalLocale(() => streamChunkSchema.safeParse({ type: 'text', content: 5 }).error?.issues[0]?.message)).toBe('Ungültige Eingabe')
  })

  it('deserializeMessages names the field and says what was wrong, in English', () => {
    const bad = { version: 1, messages: [{ ...serializeMessages([message]).messages[0], role: 'robot' }] }
    expect(() => withGlobalLocale(() => deserializeMessages(bad))).toThrow(
      'Memory record is invalid at messages.0.role: Invalid option: expected one of "user"|"assistant"|"system"|"tool"',
    )
    expect(() => withGlobalLocale(() => deserializeMessages({ version: 2, messages: [] }))).toThrow('Memory record is invalid at version: Invalid input: expected 1')
  })
})
