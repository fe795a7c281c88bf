import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import { startAgentProcess } from '../../../../src/agents/process/agent-process.js'
import type { AgentProcessExit } from '../../../../src/agents/process/agent-process.js'
import { agentErrorChunk } from '../../../../src/agents/process/agent-error-chunk.js'
import { parseJsonLine } from '../../../../src/agents/process/json-value.js'
import { createProcessStreamSource } from '../../../../src/agents/process/process-stream-source.js'

/**
 * Issue 28 item 7: whatever a child prints, the host process stays up and its memory bounded. A
 * stdout line over the cap is skipped with a warning and reading resumes at the next newline (the
 * readers' policy); a throwing line handler ends the turn as data. Real child processes.
 */

const node = process.execPath

interface Run {
  lines: string[]
  overCap: { line: number; bytes: number; warning: string }[]
  errors: unknown[]
  exit: AgentProcessExit
}

async function run(script: string, maxLineBytes?: number): Promise<Run> {
  const lines: string[] = []
  const overCap: Run['overCap'] = []
  const errors: unknown[] = []
  const child = startAgentProcess({
    bin: node,
    args: ['-e', script],
    onLine: (line) => lines.push(line),
    onOverCapLine: (skipped) => overCap.push(skipped),
    onLineError: (error) => errors.push(error),
    ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
  })
  child.endInput()
  return { lines, overCap, errors, exit: await child.exited }
}

async function collect(iterator: AsyncIterableIterator<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for await (const chunk of iterator) chunks.push(chunk)
  return chunks
}

describe('child stdout lines are capped', () => {
  it('skips a line over the cap, with its size, and resumes at the next newline (small cap)', async () => {
    const script = `
      process.stdout.write('first\\n')
      process.stdout.write('x'.repeat(5000))
      setTimeout(() => {
        process.stdout.write('y'.repeat(5000) + '\\nsecond\\r\\n')
        process.stdout.write('z'.repeat(3000))
      }, 20)`
    const seen = await run(script, 1024)
    expect(seen.lines).toEqual(['first', 'second'])
    expect(seen.overCap.map(({ line, bytes }) => ({ line, bytes }))).toEqual([
      { line: 2, bytes: 10_000 },
      { line: 4, bytes: 3000 },
    ])
    expect(seen.overCap[0]?.warning).toMatch(/printed a stdout line of 10000 bytes \(line 2\), over the 1024-byte line cap; it was skipped/)
    expect(seen.exit).toMatchObject({ kind: 'exited', code: 0 })
  })

  it('by default: a 600 MiB stdout line without a newline is skipped quickly, in bounded memory', async () => {
    // 600 MiB in 1 MiB writes, then a normal line. readline made it one string: RangeError, process gone.
    const script = `
      const block = Buffer.alloc(1024 * 1024, 0x61)
      let left = 600
      const next = () => {
        while (left > 0) { left -= 1; if (!process.stdout.write(block)) return process.stdout.once('drain', next) }
        process.stdout.write('\\n{"after":true}\\n')
      }
      next()`
    const before = process.memoryUsage().rss
    const started = performance.now()
    const seen = await run(script)
    expect(seen.lines).toEqual(['{"after":true}'])
    expect(seen.overCap.map(({ line, bytes }) => ({ line, bytes }))).toEqual([{ line: 1, bytes: 600 * 1024 * 1024 }])
    expect(seen.exit).toMatchObject({ kind: 'exited', code: 0 })
    // Generous bounds for a loaded machine: a pipe moves 600 MiB in a second or two.
    expect(performance.now() - started).toBeLessThan(60_000)
    expect((process.memoryUsage().rss - before) / (1024 * 1024)).toBeLessThan(200)
  }, 90_000)

  it('stderr, however long and without a newline, keeps only its tail', async () => {
    const seen = await run(`process.stderr.write('e'.repeat(20 * 1024 * 1024)); process.stderr.write('\\nthe reason\\n')`)
    expect(seen.exit.kind === 'exited' ? seen.exit.stderr : '').toBe('the reason')
  })

  it('a line handler that throws is reported, never thrown, and later lines still arrive', async () => {
    const lines: string[] = []
    const errors: unknown[] = []
    const child = startAgentProcess({
      bin: node,
      args: ['-e', `process.stdout.write('boom\\nok\\n')`],
      onLine: (line) => {
        if (line === 'boom') throw new Error('handler bug')
        lines.push(line)
      },
      onLineError: (error) => errors.push(error),
    })
    expect(await child.exited).toMatchObject({ kind: 'exited', code: 0 })
    expect(lines).toEqual(['ok'])
    expect(String(errors[0])).toMatch(/handler bug/)
  })
})

describe('the turn stream says what was skipped', () => {
  const handlers = {
    onLine: (line: string): StreamChunk[] => {
      const event = parseJsonLine(line)
      if (event?.throw === true) throw new Error('mapper bug')
      if (typeof event?.t === 'string') return [{ type: 'text', content: event.t }]
      if (event?.end === true) return [{ type: 'done', metadata: { warnings: ['the CLI\'s own'] } }]
      return []
    },
    onExit: (): StreamChunk[] => [agentErrorChunk({ code: 'EXITED', message: 'exited' })],
  }

  it('an over-cap stdout line is named in the done chunk\'s metadata.warnings, after the mapper\'s own', async () => {
    const source = createProcessStreamSource({
      command: () => ({ bin: node, args: ['-e', `process.stdout.write('{"t":"a"}\\n' + 'q'.repeat(4096) + '\\n{"t":"b"}\\n{"end":true}\\n')`] }),
      handlers,
      maxLineBytes: 512,
      graceMs: 300,
    })
    const chunks = await collect(source.stream())
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text', 'text', 'done'])
    expect(chunks.map((chunk) => chunk.content).slice(0, 2)).toEqual(['a', 'b'])
    const warnings = chunks[2]?.metadata?.warnings as string[]
    expect(warnings[0]).toBe('the CLI\'s own')
    expect(warnings[1]).toMatch(/stdout line of 4096 bytes \(line 2\), over the 512-byte line cap/)
  })

  it('a mapper that throws on a line ends the turn with one error chunk, never an uncaught exception', async () => {
    const source = createProcessStreamSource({
      command: () => ({ bin: node, args: ['-e', `process.stdout.write('{"t":"a"}\\n{"throw":true}\\n'); setTimeout(() => {}, 30000)`] }),
      handlers,
      graceMs: 300,
    })
    const chunks = await collect(source.stream())
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text', 'error'])
    expect(chunks[1]?.content).toMatch(/mapper bug/)
  }, 20_000)
})
