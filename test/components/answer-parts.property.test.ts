import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { restoredMessages } from '../../src/client/index.js'
import { AnswerParts } from '../../src/contract/answer-parts.js'
import { componentChunk, componentOfChunk } from '../../src/contract/component-chunk.js'
import type { ComponentPart } from '../../src/contract/component-part.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { createUiPartEncoder } from '../../src/protocol/encode-parts.js'
import { uiPartToChunks } from '../../src/protocol/decode-parts.js'
import { toUiMessages } from '../../src/server/ui-messages.js'

/**
 * One rule for an answer's content and parts wherever it is built (controller, server, restore):
 * for any interleaving of text deltas and components, `content` is what a consumer that knows no
 * components shows (every chunk's content, concatenated); the stream survives the wire (encode →
 * decode gives the same text and the same components in order); and a stored answer comes back
 * from GET and the client's restore with the same content and parts.
 */

const component = (n: number): ComponentPart => ({ type: 'component', componentKey: 'progress', instanceId: `p-${n}`, props: { label: `step ${n}` }, fallback: { kind: 'progress', summary: `step ${n}: in progress` }, provenance: 'route' })

const pieces = fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).map((text) => ({ text })), fc.nat(50).map((n) => ({ component: component(n) }))), { maxLength: 20 })

const chunksOf = (list: ReadonlyArray<{ text: string } | { component: ComponentPart }>): StreamChunk[] =>
  list.map((piece) => ('text' in piece ? { type: 'text', content: piece.text } : componentChunk(piece.component)))

function build(chunks: readonly StreamChunk[]): AnswerParts {
  const answer = new AnswerParts()
  for (const chunk of chunks) {
    const part = componentOfChunk(chunk)
    if (part) answer.component(part)
    else answer.text(chunk.content ?? '')
  }
  return answer
}

describe('answer parts: one rule everywhere', () => {
  it('content is every chunk\'s content concatenated; parts hold the text runs and the components in order', () => {
    fc.assert(fc.property(pieces, (list) => {
      const chunks = chunksOf(list)
      const answer = build(chunks)
      expect(answer.content).toBe(chunks.map((chunk) => chunk.content).join(''))
      const components = list.flatMap((piece) => ('component' in piece ? [piece.component] : []))
      if (components.length === 0) {
        expect(answer.parts).toBeUndefined()
        return
      }
      expect(answer.parts?.filter((part) => part.type === 'component')).toEqual(components)
      // no two text parts in a row, none empty
      const kinds = (answer.parts ?? []).map((part) => part.type)
      expect(kinds.join(',')).not.toContain('text,text')
      expect((answer.parts ?? []).every((part) => part.type !== 'text' || part.text !== '')).toBe(true)
    }))
  })

  it('encode → decode keeps the text and the components in order', () => {
    fc.assert(fc.property(pieces, (list) => {
      const chunks = chunksOf(list)
      const encoder = createUiPartEncoder({ messageId: 'm' })
      const wire = [...encoder.start(), ...chunks.flatMap((chunk) => encoder.encode(chunk)), ...encoder.finish()]
      const decoded = build(wire.flatMap((part) => JSON.parse(JSON.stringify(uiPartToChunks(part))) as StreamChunk[]).filter((chunk) => chunk.type === 'text'))
      const original = build(chunks)
      expect(decoded.content).toBe(original.content)
      expect(decoded.parts).toEqual(original.parts)
    }))
  })

  it('stored → GET → restored: the same content and parts', () => {
    fc.assert(fc.property(pieces, (list) => {
      const answer = build(chunksOf(list))
      const stored: Message = { id: 'a1', role: 'assistant', content: answer.content, status: 'complete', createdAt: new Date(0), ...(answer.parts ? { parts: answer.parts } : {}) }
      const [restored] = restoredMessages(JSON.parse(JSON.stringify(toUiMessages([stored]))), new Date(0))
      expect(restored?.content).toBe(stored.content)
      expect(restored?.parts).toEqual(stored.parts)
    }))
  })

  it('a data-component part that is not a well-formed component decodes to nothing', () => {
    for (const data of [{ type: 'component' }, { ...component(1), componentKey: 'Bad Key' }, { ...component(1), provenance: 'model' }, { ...component(1), fallback: { kind: 'x', summary: '' } }]) {
      expect(uiPartToChunks({ type: 'data-component', id: 'x', data: data as ComponentPart })).toEqual([])
    }
  })
})
