import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { composeChat } from '../../../src/agents/opencode/compose-chat.js'
import { applyEvent, createSessionModel } from '../../../src/agents/opencode/session-fold.js'
import { createSseParser } from '../../../src/agents/opencode/sse-parser.js'
import type { OpencodeEvent } from '../../../src/agents/opencode/sse-parser.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { events, SCENARIOS } from './fixture-files.js'

/**
 * The event-stream parser and the fold under hostile input, like the other readers' fuzz suites:
 * any chunking of the SSE bytes, truncated and garbage events, unknown event types, and parts
 * arriving out of order must neither throw nor change what the clean stream gives.
 */

const sseOf = (list: readonly OpencodeEvent[]): string => list.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')

function foldAll(list: readonly OpencodeEvent[]): AgentChat {
  const model = createSessionModel()
  for (const event of list) applyEvent(model, event)
  return composeChat(model)
}

describe('createSseParser', () => {
  it('parses the SSE framing: data lines joined, comments and other fields ignored, CRLF accepted', () => {
    const parser = createSseParser()
    const out = parser.push(': heartbeat\r\nevent: message\r\nid: 7\r\ndata: {"type":"a",\r\ndata: "properties":{"x":1}}\r\n\r\ndata: {"type":"b"}\n\n')
    expect(out).toEqual([
      { type: 'a', properties: { x: 1 } },
      { type: 'b', properties: {} },
    ])
    expect(parser.warnings()).toEqual([])
  })

  it('skips and counts malformed events instead of throwing', () => {
    const parser = createSseParser()
    expect(parser.push('data: {"type":\n\ndata: [1,2]\n\ndata: {"no":"type"}\n\ndata: {"type":"ok"}\n\n')).toEqual([{ type: 'ok', properties: {} }])
    expect(parser.warnings()).toHaveLength(3)
  })

  it('any split of the recorded byte stream yields the same events (splits inside UTF-8 characters too)', () => {
    const bytes = Buffer.from(sseOf(events('turn-completes')))
    const whole = createSseParser().push(bytes)
    expect(whole.length).toBe(events('turn-completes').length)
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), (cuts) => {
        const parser = createSseParser()
        const out: OpencodeEvent[] = []
        let from = 0
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          out.push(...parser.push(bytes.subarray(from, cut)))
          from = cut
        }
        out.push(...parser.push(bytes.subarray(from)))
        expect(out).toEqual(whole)
      }),
      { numRuns: 100 },
    )
  })

  it('a truncated stream yields the complete events before the cut and never throws', () => {
    const text = sseOf(events('permission-once'))
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length }), (cut) => {
        const parser = createSseParser()
        const out = parser.push(text.slice(0, cut))
        const complete = text.slice(0, cut).split('\n\n').length - 1
        expect(out.length).toBe(complete)
      }),
      { numRuns: 100 },
    )
  })
})

describe('the session fold under hostile event streams', () => {
  const junk = fc.oneof(
    fc.record({ type: fc.constantFrom('plugin.added', 'lsp.updated', 'session.next.text.delta', 'totally.unknown'), properties: fc.dictionary(fc.string(), fc.jsonValue()) }),
    fc.record({ type: fc.constantFrom('message.part.updated', 'message.updated', 'session.status', 'permission.asked', 'question.replied'), properties: fc.record({ sessionID: fc.constant('ses_other') }) }),
    fc.record({ type: fc.constantFrom('message.part.updated', 'message.part.delta', 'message.updated', 'session.status'), properties: fc.dictionary(fc.string(), fc.jsonValue()) }),
  )

  it.each(SCENARIOS)('%s: unknown event types and events of other sessions change nothing', (scenario) => {
    const clean = events(scenario)
    const expected = foldAll(clean)
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(clean.length), junk), { maxLength: 20 }), (insertions) => {
        const noisy: OpencodeEvent[] = [...clean]
        for (const [at, event] of [...insertions].sort((a, b) => b[0] - a[0])) noisy.splice(Math.max(1, at), 0, event as OpencodeEvent)
        expect(() => foldAll(noisy)).not.toThrow()
        const chat = foldAll(noisy)
        // Hostile events may be of this session (random properties), but never break the composition.
        expect(chat.messages.map((message) => message.seq)).toEqual(chat.messages.map((_, index) => index + 1))
      }),
      { numRuns: 50 },
    )
    const typed = fc.sample(fc.array(junk.filter((event) => (event.properties as { sessionID?: unknown }).sessionID === 'ses_other' || !('sessionID' in event.properties)), { maxLength: 10 }), 30)
    for (const extra of typed) expect(foldAll([clean[0] as OpencodeEvent, ...clean.slice(1), ...(extra as OpencodeEvent[])])).toEqual(expected)
  })

  it.each(SCENARIOS)('%s: parts and messages of different ids arriving in any order give the same chat', (scenario) => {
    const clean = events(scenario)
    const expected = foldAll(clean)
    // Group each part's (and message's) updates in order; shuffle the groups, keep each group's order.
    const key = (event: OpencodeEvent): string => {
      const part = event.properties.part as { id?: string } | undefined
      const info = event.properties.info as { id?: string } | undefined
      if (event.type === 'message.part.updated' || event.type === 'message.part.delta') return `part:${part?.id ?? String(event.properties.partID)}`
      if (event.type === 'message.updated') return `message:${info?.id ?? ''}`
      return 'ordered'
    }
    const groups = new Map<string, OpencodeEvent[]>()
    for (const event of clean) groups.set(key(event), [...(groups.get(key(event)) ?? []), event])
    const ordered = groups.get('ordered') ?? []
    groups.delete('ordered')
    fc.assert(
      fc.property(fc.shuffledSubarray([...groups.values()], { minLength: groups.size, maxLength: groups.size }), (shuffled) => {
        // Status, permission and question events keep their order and come last, as their effect is on state.
        expect(foldAll([...shuffled.flat(), ...ordered])).toEqual(expected)
      }),
      { numRuns: 50 },
    )
  })

  it('a part never goes back from final to running, whatever order its updates arrive in', () => {
    const clean = events('permission-once')
    const toolUpdates = clean.filter((event) => event.type === 'message.part.updated' && (event.properties.part as { type?: string }).type === 'tool')
    const rest = clean.filter((event) => !toolUpdates.includes(event))
    fc.assert(
      fc.property(fc.shuffledSubarray(toolUpdates, { minLength: toolUpdates.length, maxLength: toolUpdates.length }), (shuffled) => {
        const chat = foldAll([...rest, ...shuffled])
        expect(chat.messages.find((message) => message.kind === 'tool')?.tool?.status).toBe('ok')
      }),
      { numRuns: 50 },
    )
  })
})
