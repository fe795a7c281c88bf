import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { inEnglish } from '../../src/contract/english-issues.js'
import {
  contentPartSchema,
  memoryRecordSchema,
  messageSchema,
  storedMessageSchema,
  streamChunkSchema,
  streamToolCallPayloadSchema,
  tokenUsageSchema,
  toolCallSchema,
} from '../../src/contract/schemas.js'

// src/contract/schemas.ts builds some fields by a cheaper route than their usual spelling (issue 32:
// what an app importing the schemas pays): a literal union where `z.enum` was, and the ISO datetime
// field without the `z.iso` namespace. Each exported schema must say exactly what the plain spelling
// below says (the schemas as they were written before): the same verdict, the same issues in the
// same words, the same output, on valid input and on near misses alike.

const reference = (() => {
  const tokenUsage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() })
  const toolCallPayload = z.object({ id: z.string(), name: z.string(), args: z.string(), result: z.optional(z.string()) })
  const streamChunk = z.object({
    type: z.enum(['text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done']),
    content: z.optional(z.string()),
    toolCall: z.optional(toolCallPayload),
    usage: z.optional(tokenUsage),
    metadata: z.optional(z.record(z.string(), z.unknown())),
  })
  const contentPart = z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('image'), source: z.string(), mimeType: z.optional(z.string()), detail: z.optional(z.enum(['low', 'high', 'auto'])) }),
    z.object({ type: z.literal('audio'), source: z.string(), mimeType: z.optional(z.string()), durationSec: z.optional(z.number()) }),
    z.object({ type: z.literal('video'), source: z.string(), mimeType: z.optional(z.string()), durationSec: z.optional(z.number()) }),
    z.object({ type: z.literal('file'), source: z.string(), mimeType: z.optional(z.string()), filename: z.optional(z.string()) }),
    z.object({
      type: z.literal('component'),
      componentKey: z.string().check(z.regex(/^[a-z][a-z0-9-]{0,63}$/)),
      instanceId: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/)),
      props: z.unknown(),
      fallback: z.object({ kind: z.string().check(z.minLength(1), z.maxLength(64)), summary: z.string().check(z.minLength(1), z.maxLength(4096)) }),
      provenance: z.enum(['route', 'agent', 'host']),
    }),
  ])
  const toolCall = z.object({
    id: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
    result: z.optional(z.string()),
    error: z.optional(z.string()),
    status: z.enum(['pending', 'running', 'complete', 'error', 'requires_confirmation']),
  })
  const messageFields = {
    id: z.string().check(z.minLength(1)),
    role: z.enum(['user', 'assistant', 'system', 'tool']),
    content: z.string(),
    parts: z.optional(z.array(contentPart)),
    status: z.enum(['pending', 'streaming', 'complete', 'error']),
    toolCalls: z.optional(z.array(toolCall)),
    toolCallId: z.optional(z.string()),
    metadata: z.optional(z.record(z.string(), z.unknown())),
  }
  const storedMessage = z.object({ ...messageFields, createdAt: z.iso.datetime({ offset: true }) })
  return {
    tokenUsage,
    toolCallPayload,
    streamChunk,
    contentPart,
    toolCall,
    message: z.object({ ...messageFields, createdAt: z.date() }),
    storedMessage,
    memoryRecord: z.object({ version: z.literal(1), messages: z.array(storedMessage) }),
  }
})()

/** Strings near an RFC 3339 date-time: every field in and just out of range, leap days, each offset form, then one character dropped, doubled or replaced. */
const nearDatetime = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 9999 }).map((year) => String(year).padStart(4, '0')), fc.constantFrom('2000', '1900', '2024', '2100', '999', '10000')),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.constantFrom('T', 't', ' '),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.option(fc.integer({ min: 0, max: 61 }), { nil: undefined }),
    fc.option(fc.stringMatching(/^\.\d{0,4}$/), { nil: undefined }),
    fc.constantFrom('Z', 'z', '', '+05:30', '-00:00', '+24:00', '-12:60', '+0530', '+05'),
  )
  .map(([year, month, day, separator, hour, minute, second, fraction, offset]) => {
    const two = (n: number): string => String(n).padStart(2, '0')
    return `${year}-${two(month)}-${two(day)}${separator}${two(hour)}:${two(minute)}${second === undefined ? '' : `:${two(second)}${fraction ?? ''}`}${offset}`
  })

/** `text` with one character dropped, doubled or replaced. */
const nearMiss = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(text, fc.nat(), fc.constantFrom('drop', 'double', 'replace', 'upper'), fc.constantFrom('0', '9', ':', '-', 'T', 'Z', '.', ' ', 'x', '_', '\u{1F600}')).map(([value, at, how, character]) => {
    const index = at % Math.max(value.length, 1)
    if (how === 'drop') return value.slice(0, index) + value.slice(index + 1)
    if (how === 'double') return value.slice(0, index) + (value[index] ?? '') + value.slice(index)
    if (how === 'upper') return value.toUpperCase()
    return value.slice(0, index) + character + value.slice(index + 1)
  })

/** One of `values`, or a near miss of one. */
const word = (...values: string[]): fc.Arbitrary<string> => fc.constantFrom(...values)
const nearWord = (...values: string[]): fc.Arbitrary<unknown> => fc.oneof(nearMiss(fc.constantFrom(...values)), fc.constant(''), fc.integer(), fc.constant(null))
const anything = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.date({ noInvalidDate: false }), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }))
const REMOVED = Symbol('removed')

/**
 * A valid object, or the same object with one field replaced by one of its near misses (or
 * removed): most inputs then sit right at the line, and both sides of it are reached.
 */
function around<T extends object>(valid: fc.Arbitrary<T>, near: { readonly [K in keyof T]?: fc.Arbitrary<unknown> }): fc.Arbitrary<unknown> {
  const keys = Object.keys(near) as (keyof T & string)[]
  const broken = valid.chain((value) =>
    fc.constantFrom(...keys).chain((key) =>
      fc.oneof(near[key] as fc.Arbitrary<unknown>, fc.constant(REMOVED), anything).map((bad) => {
        const copy = { ...value } as Record<string, unknown>
        if (bad === REMOVED) delete copy[key]
        else copy[key] = bad
        return copy
      }),
    ),
  )
  return fc.oneof(valid, broken)
}

const optional = <T,>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined })
const record = fc.dictionary(fc.string(), anything, { maxKeys: 3 })
const notRecord = fc.oneof(fc.constant([]), fc.constant(new Date(0)), fc.constant(Object.create(null) as object), fc.constant({ [Symbol('key')]: 1 }), fc.string())
const finite = fc.double({ noNaN: true, noDefaultInfinity: true })
const numberMiss = fc.oneof(fc.constant(Number.NaN), fc.constant(Infinity), fc.constant(-Infinity), fc.constant('1'), fc.bigInt())
/** Strings around a length limit: at it, one over, and astral characters (two UTF-16 units each) on both sides of it. */
const sized = (max: number): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constant('x'.repeat(max)), fc.constant('x'.repeat(max + 1)), fc.constant('\u{1F600}'.repeat(max / 2 + 1)), fc.constant('\u{1F600}'.repeat(max)), fc.constant('\u{1F600}'.repeat(max + 1)))

const tokenUsageValid = fc.record({ promptTokens: finite, completionTokens: fc.integer(), totalTokens: fc.integer() })
const tokenUsage = around(tokenUsageValid, { promptTokens: numberMiss, completionTokens: numberMiss, totalTokens: numberMiss })
const toolCallPayloadValid = fc.record({ id: fc.string(), name: fc.string(), args: fc.string(), result: optional(fc.string()) }, { requiredKeys: ['id', 'name', 'args'] })
const toolCallPayload = around(toolCallPayloadValid, { id: fc.integer(), args: fc.constant({ not: 'a string' }), result: fc.constant(null) })
const streamChunk = around(
  fc.record(
    { type: word('text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done'), content: optional(fc.string()), toolCall: optional(toolCallPayloadValid), usage: optional(tokenUsageValid), metadata: optional(record) },
    { requiredKeys: ['type'] },
  ),
  { type: nearWord('text', 'tool_call', 'tool_result', 'reasoning', 'usage', 'error', 'done'), content: fc.integer(), toolCall: toolCallPayload, usage: tokenUsage, metadata: notRecord },
)
const componentPartValid = fc.record({
  type: fc.constant('component'),
  componentKey: fc.stringMatching(/^[a-z][a-z0-9-]{0,63}$/),
  instanceId: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/),
  props: anything,
  fallback: fc.record({ kind: fc.string({ minLength: 1, maxLength: 64 }), summary: fc.string({ minLength: 1, maxLength: 80 }) }),
  provenance: word('route', 'agent', 'host'),
})
const componentPart = around(componentPartValid, {
  componentKey: fc.oneof(nearMiss(fc.stringMatching(/^[a-z][a-z0-9-]{62,63}$/)), fc.constant('Choice'), fc.constant('')),
  instanceId: fc.oneof(nearMiss(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{126,127}$/)), fc.constant('-a'), fc.constant('a/b')),
  fallback: around(fc.record({ kind: sized(64), summary: sized(4096) }), { kind: fc.constant(''), summary: fc.constant('') }),
  provenance: nearWord('route', 'agent', 'host'),
})
const mediaPart = (type: string, extra: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record({ type: fc.constant(type), source: fc.string(), mimeType: optional(fc.string()), ...extra }, { requiredKeys: ['type', 'source'] })
const contentPartValid = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string() }),
  mediaPart('image', { detail: optional(word('low', 'high', 'auto')) }),
  mediaPart('audio', { durationSec: optional(finite) }),
  mediaPart('video', { durationSec: optional(finite) }),
  mediaPart('file', { filename: optional(fc.string()) }),
  componentPartValid,
)
const contentPart = fc.oneof(
  around(contentPartValid, { type: nearWord('text', 'image', 'audio', 'video', 'file', 'component'), text: fc.integer(), source: fc.constant(null), detail: nearWord('low', 'high', 'auto'), durationSec: numberMiss } as Record<string, fc.Arbitrary<unknown>>),
  componentPart,
)
const toolCallValid = fc.record(
  { id: fc.string(), name: fc.string(), args: record, result: optional(fc.string()), error: optional(fc.string()), status: word('pending', 'running', 'complete', 'error', 'requires_confirmation') },
  { requiredKeys: ['id', 'name', 'args', 'status'] },
)
const toolCall = around(toolCallValid, { args: notRecord, status: nearWord('pending', 'running', 'complete', 'error', 'requires_confirmation'), error: fc.integer() })
const isoDate = fc.oneof(nearDatetime, nearMiss(nearDatetime), fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString()))
const messageWith = (createdAt: fc.Arbitrary<unknown>, createdAtMiss: fc.Arbitrary<unknown>) =>
  around(
    fc.record(
      {
        id: fc.string({ minLength: 1 }),
        role: word('user', 'assistant', 'system', 'tool'),
        content: fc.string(),
        parts: optional(fc.array(contentPartValid, { maxLength: 2 })),
        status: word('pending', 'streaming', 'complete', 'error'),
        toolCalls: optional(fc.array(toolCallValid, { maxLength: 2 })),
        toolCallId: optional(fc.string()),
        metadata: optional(record),
        createdAt,
      },
      { requiredKeys: ['id', 'role', 'content', 'status', 'createdAt'] },
    ),
    {
      id: fc.constant(''),
      role: nearWord('user', 'assistant', 'system', 'tool'),
      parts: fc.array(contentPart, { minLength: 1, maxLength: 2 }),
      status: nearWord('pending', 'streaming', 'complete', 'error'),
      toolCalls: fc.array(toolCall, { minLength: 1, maxLength: 2 }),
      metadata: notRecord,
      createdAt: createdAtMiss,
    },
  )
const message = messageWith(fc.date({ noInvalidDate: true }), fc.oneof(fc.constant(new Date(Number.NaN)), isoDate))
const storedMessage = messageWith(isoDate, fc.oneof(fc.date(), fc.constant('yesterday'), fc.integer()))
const memoryRecord = around(fc.record({ version: fc.constant(1), messages: fc.array(storedMessage, { maxLength: 3 }) }), { version: fc.constantFrom(2, '1', 0), messages: fc.constant({}) })

interface Parsed {
  success: boolean
  data?: unknown
  error?: { issues: readonly { code: string; path: PropertyKey[]; message: string }[] }
}

/** What a parse says: the verdict, the output, and each issue as a person reads it. */
const verdict = (result: Parsed) => ({
  success: result.success,
  data: result.data,
  issues: result.error?.issues.map(({ code, path, message }) => ({ code, path, message })),
})

const cases: readonly [string, { safeParse: (value: unknown, context: typeof inEnglish) => Parsed }, { safeParse: (value: unknown, context: typeof inEnglish) => Parsed }, fc.Arbitrary<unknown>][] = [
  ['tokenUsageSchema', tokenUsageSchema, reference.tokenUsage, tokenUsage],
  ['streamToolCallPayloadSchema', streamToolCallPayloadSchema, reference.toolCallPayload, toolCallPayload],
  ['streamChunkSchema', streamChunkSchema, reference.streamChunk, streamChunk],
  ['contentPartSchema', contentPartSchema, reference.contentPart, contentPart],
  ['toolCallSchema', toolCallSchema, reference.toolCall, toolCall],
  ['messageSchema', messageSchema, reference.message, message],
  ['storedMessageSchema', storedMessageSchema, reference.storedMessage, storedMessage],
  ['memoryRecordSchema', memoryRecordSchema, reference.memoryRecord, memoryRecord],
]

describe('the exported schemas say what their plain spelling says', () => {
  for (const [name, schema, plain, inputs] of cases) {
    it(`${name}: the same verdict, output and issues on valid input and near misses`, () => {
      let accepted = 0
      let rejected = 0
      fc.assert(
        fc.property(inputs, (value) => {
          const ours = schema.safeParse(value, inEnglish)
          expect(verdict(ours)).toEqual(verdict(plain.safeParse(value, inEnglish)))
          if (ours.success) accepted += 1
          else rejected += 1
        }),
        { numRuns: 1000 },
      )
      // the inputs reach both sides of the line
      expect(accepted).toBeGreaterThan(20)
      expect(rejected).toBeGreaterThan(20)
    })
  }

  it('storedMessageSchema.createdAt is the schema z.iso.datetime({ offset: true }) returns', () => {
    const createdAt = storedMessageSchema.shape.createdAt
    const spelled = z.iso.datetime({ offset: true })
    expect(createdAt).toBeInstanceOf(z.ZodMiniISODateTime)
    const { pattern, ...def } = createdAt._zod.def
    const { pattern: spelledPattern, ...spelledDef } = spelled._zod.def
    expect(def).toEqual(spelledDef)
    expect(pattern?.source).toBe(spelledPattern?.source)
    expect(createdAt.safeParse('2030-02-29T00:00:00Z', inEnglish).error?.issues[0]?.message).toBe('Invalid ISO datetime')
  })

  it('the literal unions publish what the enums did (JSON Schema: a string enum)', () => {
    expect(z.toJSONSchema(toolCallSchema)).toEqual(z.toJSONSchema(reference.toolCall))
    expect(z.toJSONSchema(contentPartSchema)).toEqual(z.toJSONSchema(reference.contentPart))
  })
})
