import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Bytes } from '../../src/store/turn-parts.js'

// The per-turn cap on recorded parts counts UTF-8 bytes without encoding (turn-parts.ts): the count
// must be TextEncoder's, for any string, lone surrogates included (written as U+FFFD, 3 bytes).
describe('utf8Bytes', () => {
  it('equals TextEncoder’s byte length for any string (property)', () => {
    const encoder = new TextEncoder()
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
      expect(utf8Bytes(text)).toBe(encoder.encode(text).byteLength)
    }), { numRuns: 2000 })
    for (const text of ['', 'a', 'ü', '✓', '😀', '\ud800', '\udc00x', 'a\ud83d']) expect(utf8Bytes(text)).toBe(encoder.encode(text).byteLength)
  })
})
