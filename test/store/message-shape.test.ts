import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { messageSchema, storedMessageSchema } from '../../src/contract/schemas.js'
import { isPlainMessageShape } from '../../src/store/message-shape.js'

// The store's fast path may only ever accept what the schema accepts (it skips the zod parse for
// the common shape); anything it is unsure of goes through the schema.

const anyValue = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: false }), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }))
const iso = fc.oneof(fc.date({ min: new Date(0), max: new Date(Date.UTC(2200, 0, 1)), noInvalidDate: true }).map((d) => d.toISOString()), fc.string(), fc.constantFrom('2030-02-31T25:00:00Z', '2030-02-31T10:00:00Z', '2030-04-31T10:00:00.000Z', '2029-02-29T00:00:00Z', '2028-02-29T00:00:00Z', '2030-01-01T00:00:00+05:30', '0099-01-01T00:00:00Z'))
const candidate = fc.record({
  id: fc.oneof(fc.string(), anyValue),
  role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool', 'robot'), anyValue),
  content: fc.oneof(fc.string(), anyValue),
  status: fc.oneof(fc.constantFrom('pending', 'streaming', 'complete', 'error', 'done'), anyValue),
  createdAt: fc.oneof(fc.date({ noInvalidDate: false }), iso, anyValue),
  metadata: fc.oneof(fc.dictionary(fc.string(), anyValue, { maxKeys: 3 }), anyValue),
  toolCallId: anyValue,
  parts: anyValue,
  extra: anyValue,
}, { requiredKeys: [] })

describe('isPlainMessageShape', () => {
  it('accepts only what the message schemas accept', () => {
    fc.assert(fc.property(candidate, (value) => {
      if (isPlainMessageShape(value, 'date')) expect(messageSchema.safeParse(value).success).toBe(true)
      if (isPlainMessageShape(value, 'iso')) expect(storedMessageSchema.safeParse(value).success).toBe(true)
    }), { numRuns: 5000 })
  })

  it('takes the shapes a server turn writes and reads', () => {
    const message = { id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(0) }
    expect(isPlainMessageShape(message, 'date')).toBe(true)
    expect(isPlainMessageShape({ ...message, metadata: { chatrail: { v: 1 } } }, 'date')).toBe(true)
    expect(isPlainMessageShape(JSON.parse(JSON.stringify(message)), 'iso')).toBe(true)
    expect(isPlainMessageShape({ ...message, createdAt: new Date(Number.NaN) }, 'date')).toBe(false)
    expect(isPlainMessageShape({ ...message, parts: [] }, 'date')).toBe(false) // left to the schema
  })
})
