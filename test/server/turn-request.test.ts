import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chatRequestSchema } from '../../src/protocol/chat-request.js'
import { isPlainChatRequest } from '../../src/server/turn-request.js'

// The handler's fast path for useChat's body may only accept what chatRequestSchema accepts.

const anyValue = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }))
const part = fc.oneof(fc.record({ type: fc.oneof(fc.constant('text'), anyValue), text: anyValue }, { requiredKeys: [] }), anyValue)
const message = fc.oneof(fc.record({
  id: fc.oneof(fc.string(), anyValue),
  role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool'), anyValue),
  parts: fc.oneof(fc.array(part, { maxLength: 3 }), anyValue),
  metadata: anyValue,
}, { requiredKeys: [] }), anyValue)
const body = fc.oneof(fc.record({
  id: fc.oneof(fc.string(), anyValue),
  trigger: fc.oneof(fc.constantFrom('submit-message', 'regenerate-message', 'resubmit'), anyValue),
  messages: fc.oneof(fc.array(message, { maxLength: 3 }), anyValue),
  messageId: anyValue,
  extra: anyValue,
}, { requiredKeys: [] }), anyValue)

describe('isPlainChatRequest', () => {
  it('accepts only what chatRequestSchema accepts', () => {
    fc.assert(fc.property(body, (value) => {
      if (isPlainChatRequest(value)) expect(chatRequestSchema.safeParse(value).success).toBe(true)
    }), { numRuns: 5000 })
  })
  it("takes useChat's body", () => {
    expect(isPlainChatRequest({ id: 'c1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }], metadata: { x: 1 } }] })).toBe(true)
  })
})
