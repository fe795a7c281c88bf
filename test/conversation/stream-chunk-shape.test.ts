import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { streamChunkSchema } from '../../src/contract/schemas.js'
import { isStreamChunk } from '../../src/conversation/route-output.js'

/**
 * A route's extra chunks are checked with a shape check instead of `streamChunkSchema` (issue 32:
 * the turn path carries no zod). Both must give the same verdict on anything a route may return.
 */

const types = ['text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done', 'Text', '', 'other']
const field = fc.oneof(fc.constantFrom<unknown>(undefined, null, 'x', '', 1, Number.NaN, Number.POSITIVE_INFINITY, true, [], {}, new Date(0), new Map(), Object.create(null) as object), fc.anything())
const toolCall = fc.record({ id: field, name: field, args: field, result: field }, { requiredKeys: [] })
const usage = fc.record({ promptTokens: fc.oneof(fc.double(), field), completionTokens: fc.oneof(fc.integer(), field), totalTokens: fc.oneof(fc.integer(), field) }, { requiredKeys: [] })
const chunk = fc.record(
  {
    type: fc.oneof(fc.constantFrom<unknown>(...types), field),
    content: fc.oneof(fc.string(), field),
    toolCall: fc.oneof(toolCall, field),
    usage: fc.oneof(usage, field),
    metadata: fc.oneof(fc.dictionary(fc.string(), fc.anything()), field),
    extra: field,
  },
  { requiredKeys: [] },
)

describe('isStreamChunk', () => {
  it('accepts what streamChunkSchema accepts, and nothing else', () => {
    fc.assert(
      fc.property(fc.oneof(chunk, fc.anything()), (value) => {
        expect(isStreamChunk(value)).toBe(streamChunkSchema.safeParse(value).success)
      }),
      { numRuns: 5000 },
    )
  })

  it('on the common chunks', () => {
    const valid = [{ type: 'text', content: 'x' }, { type: 'tool_call', toolCall: { id: 'a', name: 'n', args: '{}' } }, { type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } }, { type: 'reasoning', metadata: { a: 1 } }]
    for (const value of valid) expect([isStreamChunk(value), streamChunkSchema.safeParse(value).success]).toEqual([true, true])
    const invalid = [{ type: 'nope' }, { type: 'text', content: 1 }, { type: 'usage', usage: { promptTokens: Number.NaN, completionTokens: 2, totalTokens: 3 } }, { type: 'text', metadata: new Map() }, null, 'text']
    for (const value of invalid) expect([isStreamChunk(value), streamChunkSchema.safeParse(value).success]).toEqual([false, false])
  })

  // What generated values rarely hold: symbol keys, prototypes, inherited fields.
  it('on the edges of plain objects', () => {
    const hidden = {}
    Object.defineProperty(hidden, Symbol('hidden'), { value: 1, enumerable: false })
    class Meta {}
    const edges: unknown[] = [
      { type: 'text', metadata: { [Symbol('shown')]: 1 } },
      { type: 'text', metadata: hidden },
      { type: 'text', metadata: Object.create(null) as object },
      { type: 'text', metadata: new Meta() },
      { type: 'text', metadata: [] },
      { type: 'text', metadata: { constructor: 'not a function' } },
      { type: 'tool_call', toolCall: Object.create({ id: 'a', name: 'n', args: '{}' }) as object },
      Object.create({ type: 'text' }) as object,
      { type: 'text', content: undefined, toolCall: undefined },
      { type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: Number.POSITIVE_INFINITY } },
      { type: 'tool_call', toolCall: { id: 'a', name: 'n', args: '{}', result: 1 } },
      [],
    ]
    for (const value of edges) expect(isStreamChunk(value)).toBe(streamChunkSchema.safeParse(value).success)
  })
})
