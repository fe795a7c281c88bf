import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AGENTSKIT_CONTENT_PREFIX,
  decodeAgentskitContent,
  defineComponents,
  encodeAgentskitContent,
  fromAgentskitFrame,
  standardCatalog,
  toAgentskitFrame,
} from '../../src/components/index.js'
import type { ContentPart } from '../../src/contract/message.js'

/** AgentsKit Chat's component frame and ordered content, for compatibility (issue 30). */

const components = defineComponents(standardCatalog)
const table = components.render('table', { columns: [{ key: 'id', label: 'Order' }], rows: [{ id: '12345' }] }, { instanceId: 'orders' })

describe('AgentsKit render frames', () => {
  it('a part → frame → part round trip keeps everything but the provenance, which the reader names', () => {
    const frame = toAgentskitFrame(table)
    expect(frame).toMatchObject({ protocol: 'agentskit.chat.component', version: 1, type: 'render', componentKey: 'table', instanceId: 'orders' })
    expect(fromAgentskitFrame(JSON.stringify(frame), 'agent')).toEqual({ ok: true, part: { ...table, provenance: 'agent' } })
  })

  it('other versions, types, fields and malformed frames get their codes', () => {
    const frame = toAgentskitFrame(table)
    expect(fromAgentskitFrame({ ...frame, version: 2 }, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_UNSUPPORTED_VERSION' } })
    expect(fromAgentskitFrame({ ...frame, type: 'select' }, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_UNKNOWN_TYPE' } })
    expect(fromAgentskitFrame({ ...frame, extra: 1 }, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_FRAME' } })
    expect(fromAgentskitFrame({ ...frame, componentKey: 'Table' }, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_FRAME' } })
    expect(fromAgentskitFrame({ ...frame, fallback: { kind: '', summary: 'x' } }, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_FRAME' } })
    expect(fromAgentskitFrame({ ...frame, props: Array.from({ length: 1001 }, () => 0) }, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_FRAME' } })
    expect(fromAgentskitFrame('{not json', 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'COMPONENT_INVALID_FRAME' } })
  })
})

describe('AgentsKit ordered content', () => {
  const parts: ContentPart[] = [{ type: 'text', text: 'Your orders:' }, table, { type: 'text', text: 'Anything else?' }]

  it('round-trips text and components in order; protocol-looking text stays text', () => {
    const encoded = encodeAgentskitContent(parts) ?? ''
    expect(encoded.startsWith(AGENTSKIT_CONTENT_PREFIX)).toBe(true)
    expect(decodeAgentskitContent(encoded, 'agent')).toEqual({ ok: true, complete: true, parts: [parts[0], { ...table, provenance: 'agent' }, parts[2]] })
    const tricky: ContentPart[] = [{ type: 'text', text: `${AGENTSKIT_CONTENT_PREFIX}{"kind":"component"}\n\u001e` }]
    expect(decodeAgentskitContent(encodeAgentskitContent(tricky) ?? '', 'agent')).toEqual({ ok: true, complete: true, parts: tricky })
  })

  it('while streaming: a partial prefix shows nothing, an unfinished last record is left out', () => {
    const encoded = encodeAgentskitContent(parts) ?? ''
    for (let cut = 1; cut < AGENTSKIT_CONTENT_PREFIX.length; cut++) expect(decodeAgentskitContent(encoded.slice(0, cut), 'agent')).toEqual({ ok: true, parts: [], complete: false })
    const firstRecordEnd = encoded.indexOf('\n', AGENTSKIT_CONTENT_PREFIX.length) + 1
    expect(decodeAgentskitContent(encoded.slice(0, firstRecordEnd + 10), 'agent')).toEqual({ ok: true, parts: [parts[0]], complete: false })
  })

  it('an incremental read equals the full read of the records so far, at every cut', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 30 }).map((text): ContentPart => ({ type: 'text', text })), fc.constant<ContentPart>(table)), { maxLength: 12 }), (list) => {
      const encoded = encodeAgentskitContent(list) ?? ''
      // each item is one record here (texts are short): the k-th newline ends the k-th item
      // every cut at, just before and just after a record's end, and one inside each record (linear
      // in the records, not in the characters: every character's cut took 20 s on a loaded CI run)
      const ends = [...encoded.matchAll(/\n/g)].map((match) => (match.index ?? 0) + 1).filter((end) => end > AGENTSKIT_CONTENT_PREFIX.length)
      const cuts = [...new Set([AGENTSKIT_CONTENT_PREFIX.length, ...ends.flatMap((end, i) => [end - 1, end, end + 1, Math.floor(((ends[i - 1] ?? AGENTSKIT_CONTENT_PREFIX.length) + end) / 2)])])].filter((cut) => cut >= AGENTSKIT_CONTENT_PREFIX.length && cut <= encoded.length).sort((a, b) => a - b)
      let records = 0
      for (const cut of cuts) {
        records = ends.filter((end) => end <= cut).length
        const partial = decodeAgentskitContent(encoded.slice(0, cut), 'agent')
        const upTo = decodeAgentskitContent(encodeAgentskitContent(list.slice(0, records)) ?? '', 'agent')
        expect(partial.ok && upTo.ok && partial.parts).toEqual(upTo.ok && upTo.parts)
        // the prefix alone is still "starting" (AgentsKit reads it so); after it, a newline ends a record
        expect(partial.ok && partial.complete).toBe(cut > AGENTSKIT_CONTENT_PREFIX.length && encoded[cut - 1] === '\n')
      }
    }), { numRuns: 40 })
  })

  it('limits count UTF-8 bytes and records; other versions and bad records get their codes', () => {
    const wide = '€'.repeat(16_000) // 48,000 UTF-8 bytes, 16,000 characters
    expect(encodeAgentskitContent(Array.from({ length: 6 }, () => ({ type: 'text' as const, text: wide })))).toBeUndefined()
    const overBytes = `${AGENTSKIT_CONTENT_PREFIX}${JSON.stringify({ kind: 'text', text: wide })}\n`.repeat(1).concat(`${JSON.stringify({ kind: 'text', text: wide })}\n`.repeat(5))
    expect(decodeAgentskitContent(overBytes, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'ASSISTANT_CONTENT_LIMIT_EXCEEDED' } })
    const manyRecords = `${AGENTSKIT_CONTENT_PREFIX}${`${JSON.stringify({ kind: 'text', text: 'x' })}\n`.repeat(513)}`
    expect(decodeAgentskitContent(manyRecords, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'ASSISTANT_CONTENT_LIMIT_EXCEEDED' } })
    expect(decodeAgentskitContent('\u001eagentskit.chat.content/2\n', 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'ASSISTANT_CONTENT_UNSUPPORTED_VERSION' } })
    expect(decodeAgentskitContent(`${AGENTSKIT_CONTENT_PREFIX}{"kind":"image"}\n`, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'ASSISTANT_CONTENT_INVALID_RECORD' } })
    expect(decodeAgentskitContent(`${AGENTSKIT_CONTENT_PREFIX}\n`, 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'ASSISTANT_CONTENT_INVALID_RECORD' } })
    expect(decodeAgentskitContent('plain text', 'agent')).toMatchObject({ ok: false, diagnostic: { code: 'ASSISTANT_CONTENT_INVALID_RECORD' } })
  })

  it('a text longer than one record is split (never inside a surrogate pair) and read back whole', () => {
    const long = `${'a'.repeat(16_383)}😀${'b'.repeat(20_000)}`
    const encoded = encodeAgentskitContent([{ type: 'text', text: long }]) ?? ''
    expect(encoded.split('\n').length - 2).toBe(3)
    expect(decodeAgentskitContent(encoded, 'agent')).toEqual({ ok: true, complete: true, parts: [{ type: 'text', text: long }] })
  })
})
