import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSseParser } from '../../../src/agents/opencode/sse-parser.js'
import type { OpencodeEvent, SseParser } from '../../../src/agents/opencode/sse-parser.js'

/**
 * Issue 28 item 8: the `GET /event` parser is linear in time and bounded in memory whatever a
 * hostile server sends. The old parser appended each chunk to one string and searched it again
 * from the start: the last quarter of a 16 MiB line took 13.9 s and a 64 MiB line did not finish
 * in 200 s. Timings here are relative (4× the bytes must cost under 12× the time, best of several
 * runs), never absolute milliseconds, and memory is the heap's peak growth compared between sizes.
 */

const MiB = 1024 * 1024
const CHUNK = 64 * 1024
const pad = new Uint8Array(CHUNK).fill(0x61) // 'a'

/** One event whose data line is about `bytes` long, fed in 64 KiB chunks, then a small event. */
function feedLongLine(parser: SseParser, bytes: number, onChunk?: () => void): OpencodeEvent[] {
  const out: OpencodeEvent[] = []
  out.push(...parser.push('data: {"type":"big","properties":{"pad":"'))
  for (let sent = 0; sent < bytes; sent += CHUNK) {
    out.push(...parser.push(pad))
    onChunk?.()
  }
  out.push(...parser.push('"}}\n\n'))
  out.push(...parser.push('data: {"type":"after","properties":{"n":1}}\n\n'))
  return out
}

function timed(run: () => void): number {
  const started = performance.now()
  run()
  return performance.now() - started
}

/**
 * The best of `runs` timings of each, taken in turns (so a busy moment of the shared machine hits
 * both alike): the least disturbed of each.
 */
function bestOfEach(runs: number, first: () => void, second: () => void): [number, number] {
  const times: [number[], number[]] = [[], []]
  for (let run = 0; run < runs; run += 1) {
    times[0].push(timed(first))
    times[1].push(timed(second))
  }
  return [Math.min(...times[0]), Math.min(...times[1])]
}

describe('createSseParser on a long line (linear time, bounded memory)', () => {
  it('a line 4× longer costs under 12× the time (linear: 4×; the old quadratic parser: 16× and more), and the event arrives whole', () => {
    const cap = 64 * MiB
    const lengths: number[] = []
    const deliver = (bytes: number) => (): void => {
      const delivered = feedLongLine(createSseParser({ maxEventBytes: cap }), bytes)
      expect(delivered.map((event) => event.type)).toEqual(['big', 'after'])
      lengths.push(String(delivered[0]?.properties.pad).length)
    }
    const [small, large] = bestOfEach(5, deliver(4 * MiB), deliver(16 * MiB))
    expect(new Set(lengths)).toEqual(new Set([4 * MiB, 16 * MiB]))
    // 12, not 8: a CI run with four busy workers measured 8.7× for this linear parser; quadratic is 16×.
    expect(large / small).toBeLessThan(12)
  }, 120_000)

  it('a 64 MiB line over the default 16 MiB cap is skipped with a warning in linear time, and the next event arrives', () => {
    let parser = createSseParser()
    const skip = (bytes: number) => (): void => {
      parser = createSseParser()
      expect(feedLongLine(parser, bytes).map((event) => event.type)).toEqual(['after'])
    }
    const [at16, at64] = bestOfEach(3, skip(16 * MiB), skip(64 * MiB))
    expect(at64 / at16).toBeLessThan(8)
    expect(parser.warnings()).toEqual([expect.stringMatching(/skipped an event of 67,108,9\d\d bytes: over the 16,777,216-byte cap \(maxEventBytes\)/)])
  }, 120_000)

  it('memory stays at the cap: a 64 MiB line grows the heap no more than a 16 MiB one (4 MiB cap)', () => {
    const peakGrowth = (bytes: number): number => {
      const base = process.memoryUsage().heapUsed
      let peak = 0
      const parser = createSseParser({ maxEventBytes: 4 * MiB })
      const out = feedLongLine(parser, bytes, () => (peak = Math.max(peak, process.memoryUsage().heapUsed - base)))
      expect(out.map((event) => event.type)).toEqual(['after'])
      return peak
    }
    const at16 = peakGrowth(16 * MiB)
    const at64 = peakGrowth(64 * MiB)
    expect(at64).toBeLessThan(2 * at16 + 16 * MiB)
  }, 120_000)
})

describe('createSseParser: an over-cap event is skipped, the stream goes on', () => {
  const cap = 1024
  const big = `data: {"type":"big","properties":{"pad":"${'x'.repeat(2000)}"}}`

  it('skips it with one warning naming its size and the cap; the events before and after arrive', () => {
    const warned: string[] = []
    const parser = createSseParser({ maxEventBytes: cap, onWarning: (message) => warned.push(message) })
    const stream = `data: {"type":"before"}\n\n${big}\ndata: more\n\ndata: {"type":"after"}\n\n`
    expect(parser.push(stream).map((event) => event.type)).toEqual(['before', 'after'])
    expect(parser.warnings()).toEqual([`skipped an event of ${Buffer.byteLength(`${big}\ndata: more\n`).toLocaleString('en-US')} bytes: over the 1,024-byte cap (maxEventBytes)`])
    expect(warned).toEqual(parser.warnings())
  })

  it('the same events for any split of the bytes and any line ending (LF, CRLF, CR)', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = [`: ping`, `data: {"type":"before"}`, ``, big, `data: tail`, ``, `event: x`, `data: {"type":"after","properties":{"é":"✓"}}`, ``, ``].join(eol)
      const bytes = Buffer.from(text)
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 30 }), (cuts) => {
          const parser = createSseParser({ maxEventBytes: cap })
          const out: OpencodeEvent[] = []
          let from = 0
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            out.push(...parser.push(bytes.subarray(from, cut)))
            from = cut
          }
          out.push(...parser.push(bytes.subarray(from)))
          expect(out).toEqual([
            { type: 'before', properties: {} },
            { type: 'after', properties: { é: '✓' } },
          ])
          expect(parser.warnings()).toHaveLength(1)
        }),
        { numRuns: 60 },
      )
    }
  })

  it('a chunk of many short lines with one CR costs linear time (no rescan per line)', () => {
    // 8× the lines: linear is 8×, a rescan per line 64×. The sizes keep the small run well above
    // timer noise (at 20,000 vs 80,000 lines against < 8× a loaded CI run read 9.6×).
    const lines = (count: number): string => `${'x:\n'.repeat(count)}\r`
    const [one, eight] = bestOfEach(
      5,
      () => createSseParser().push(lines(25_000)),
      () => createSseParser().push(lines(200_000)),
    )
    expect(eight / Math.max(one, 0.5)).toBeLessThan(24)
  })
})
