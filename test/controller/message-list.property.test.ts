import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/index.js'
import { MessageList } from '../../src/controller/message-list.js'

// The persistent history behind every state: whatever sequence of appends, replacements and
// branches (building on an older version after a newer one extended the shared buffer), every
// version ever made still reads exactly as a plain array built the same way.

// Every seventh message is a system message; two in a row share a text (repeats, at any depth).
const message = (id: number): Message =>
  id % 7 === 3
    ? { id: `m${id}`, role: 'system', content: `s${Math.floor(id / 14)}`, status: 'complete', createdAt: new Date(0) }
    : { id: `m${id}`, role: id % 2 ? 'assistant' : 'user', content: `c${id}`, status: 'complete', createdAt: new Date(0) }
const SYSTEM_TEXTS = [...Array.from({ length: 12 }, (_, index) => `s${index}`), 'c1']
const hasSystem = (model: readonly Message[], content: string): boolean => model.some((entry) => entry.role === 'system' && entry.content === content)

type Op = { kind: 'append'; count: number; from: number } | { kind: 'replace'; at: number; from: number } | { kind: 'restore'; from: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 12 }), from: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), from: fc.nat() }) },
  fc.record({ kind: fc.constant('restore' as const), from: fc.nat() }),
)

describe('MessageList', () => {
  it('every version reads as the plain array it models, after any appends, replacements and branches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.array(op, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 20 }), (initial, ops, reads) => {
        let next = 0
        const fresh = (): Message => message(next++)
        const start = Array.from({ length: initial }, fresh)
        const versions: Array<{ list: MessageList; model: Message[] }> = [{ list: MessageList.from(start), model: start.slice() }]
        // Some versions are read (their array built and cached) before later versions are made.
        const readAt = new Set(reads)
        ops.forEach((operation, step) => {
          const base = versions[operation.kind === 'restore' ? operation.from % versions.length : versions.length - 1 - (operation.from % Math.min(3, versions.length))] as (typeof versions)[number]
          if (readAt.has(step)) expect(base.list.toArray()).toEqual(base.model)
          // Asked between operations too: the shared index is built incrementally, by whichever version asks.
          if (step % 3 === 0) for (const text of SYSTEM_TEXTS) expect(base.list.hasSystemText(text)).toBe(hasSystem(base.model, text))
          if (operation.kind === 'append') {
            const added = Array.from({ length: operation.count }, fresh)
            versions.push({ list: base.list.append(added), model: [...base.model, ...added] })
          } else if (operation.kind === 'replace' && base.model.length > 0) {
            const index = operation.at % base.model.length
            const replacement = fresh()
            const model = base.model.slice()
            model[index] = replacement
            versions.push({ list: base.list.with(index, replacement), model })
          } else if (operation.kind === 'restore') {
            versions.push({ list: MessageList.from(base.list.toArray()), model: base.model.slice() })
          }
        })
        for (const { list, model } of versions) {
          expect(list.length).toBe(model.length)
          expect(list.toArray()).toEqual(model)
          expect(list.copy()).toEqual(model)
          for (const text of SYSTEM_TEXTS) expect(list.hasSystemText(text)).toBe(hasSystem(model, text))
          model.forEach((entry, index) => {
            expect(list.at(index)).toBe(entry)
            expect(list.indexOfId(entry.id)).toBe(index)
          })
        }
      }),
      { numRuns: 300 },
    )
  })

  it('hands back the very array it was built from, and never writes into it', () => {
    const given = Array.from({ length: 30 }, (_, index) => message(index))
    const snapshot = given.slice()
    const list = MessageList.from(given)
    expect(list.toArray()).toBe(given)
    expect(list.isArray(given)).toBe(true)
    const grown = list.append(Array.from({ length: 40 }, (_, index) => message(100 + index))).with(29, message(999))
    expect(given).toEqual(snapshot)
    expect(grown.length).toBe(70)
    expect(grown.copy()).not.toBe(grown.toArray())
  })
})
