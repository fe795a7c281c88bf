import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../../../src/contract/stream.js'
import type { AgentProcess } from '../../../../src/agents/process/agent-process.js'
import { agentErrorChunk } from '../../../../src/agents/process/agent-error-chunk.js'
import { isProcessAlive, listDescendantPids } from '../../../../src/agents/process/kill-process-tree.js'
import { parseJsonLine } from '../../../../src/agents/process/json-value.js'
import { createProcessStreamSource } from '../../../../src/agents/process/process-stream-source.js'
import type { ProcessStreamOptions } from '../../../../src/agents/process/process-stream-source.js'

const node = process.execPath
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A tiny line protocol: {"t":"text"} → text, {"end":true} → done; an exit without it → error. */
function source(script: string, extra: Partial<ProcessStreamOptions> = {}): { source: ReturnType<typeof createProcessStreamSource>; processes: AgentProcess[]; terminals: number[] } {
  const processes: AgentProcess[] = []
  const terminals: number[] = []
  const built = createProcessStreamSource({
    command: () => ({ bin: node, args: ['-e', script] }),
    handlers: {
      onLine: (line) => {
        const event = parseJsonLine(line)
        if (!event) return []
        if (typeof event.t === 'string') return [{ type: 'text', content: event.t }]
        if (event.end === true) return [{ type: 'done' }, { type: 'text', content: 'after done' }]
        return []
      },
      onExit: (exit) => [agentErrorChunk({ code: 'EXITED', message: `exit ${exit.kind === 'exited' ? String(exit.code) : exit.code}` })],
      onTerminal: () => terminals.push(Date.now()),
    },
    onProcess: (event) => {
      if (event.type === 'started') processes.push(event.process)
    },
    graceMs: 300,
    ...extra,
  })
  return { source: built, processes, terminals }
}

async function collect(iterator: AsyncIterableIterator<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for await (const chunk of iterator) chunks.push(chunk)
  return chunks
}

describe('createProcessStreamSource', () => {
  it('maps lines to chunks and ends with exactly one terminal chunk, ignoring anything after it', async () => {
    const { source: s, terminals } = source(`console.log(JSON.stringify({t:'a'})); console.log(JSON.stringify({t:'b'})); console.log(JSON.stringify({end:true})); console.log(JSON.stringify({t:'late'}))`)
    expect(await collect(s.stream())).toEqual([{ type: 'text', content: 'a' }, { type: 'text', content: 'b' }, { type: 'done' }])
    expect(terminals).toHaveLength(1)
  })

  it('does no work before stream() is iterated (A1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-a1-'))
    dirs.push(dir)
    const marker = join(dir, 'spawned')
    const { source: s } = source(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); console.log(JSON.stringify({end:true}))`)
    await new Promise((r) => setTimeout(r, 300))
    expect(existsSync(marker)).toBe(false)
    expect(await collect(s.stream())).toEqual([{ type: 'done' }])
    expect(existsSync(marker)).toBe(true)
  })

  it('turns an exit without a terminal chunk into the onExit chunks', async () => {
    const { source: s } = source(`console.log(JSON.stringify({t:'partial'})); process.exit(2)`)
    const chunks = await collect(s.stream())
    expect(chunks.map((c) => c.type)).toEqual(['text', 'error'])
    expect(chunks[1]?.content).toBe('exit 2')
  })

  it('yields one error chunk when stream() is called a second time (A2)', async () => {
    const { source: s } = source(`console.log(JSON.stringify({end:true}))`)
    await collect(s.stream())
    const again = await collect(s.stream())
    expect(again).toHaveLength(1)
    expect(again[0]?.type).toBe('error')
    expect((again[0]?.metadata?.error as { code?: string }).code).toBe('SOURCE_ALREADY_CONSUMED')
  })

  it('abort() before stream() spawns nothing and the stream is empty; abort() never throws (A6)', async () => {
    const { source: s, processes } = source(`console.log(JSON.stringify({end:true}))`)
    s.abort()
    s.abort()
    expect(await collect(s.stream())).toEqual([])
    expect(processes).toHaveLength(0)
    expect(() => s.abort()).not.toThrow()
  })

  it('abort() mid-stream yields nothing more and ends once the process tree is gone', async () => {
    const { source: s, processes } = source(
      `const { spawn } = require('child_process'); spawn('sleep', ['300'], { stdio: 'ignore' }); console.log(JSON.stringify({t:'working'})); setInterval(() => console.log(JSON.stringify({t:'tick'})), 20)`,
    )
    const iterator = s.stream()
    expect((await iterator.next()).value).toEqual({ type: 'text', content: 'working' })
    const pid = processes[0]?.pid as number
    const tree = [pid, ...listDescendantPids(pid)]
    expect(tree.length).toBeGreaterThanOrEqual(2)
    s.abort()
    const rest = await collect(iterator)
    expect(rest).toEqual([])
    expect(tree.filter(isProcessAlive)).toEqual([])
  })

  it('a consumer that stops early (break) without a terminal chunk aborts the process', async () => {
    const { source: s, processes } = source(`setInterval(() => console.log(JSON.stringify({t:'tick'})), 10)`)
    for await (const chunk of s.stream()) {
      expect(chunk.type).toBe('text')
      break
    }
    const exit = await processes[0]?.exited
    expect(exit?.kind === 'exited' && exit.signal).toBe('SIGTERM')
  })

  it('terminates a CLI that lingers after its terminal chunk (bounded by exitTimeoutMs)', async () => {
    const { source: s, processes } = source(`console.log(JSON.stringify({end:true})); setInterval(() => {}, 1000)`, { exitTimeoutMs: 300 })
    const started = Date.now()
    expect(await collect(s.stream())).toEqual([{ type: 'done' }])
    expect(Date.now() - started).toBeLessThan(5000)
    expect(isProcessAlive(processes[0]?.pid as number)).toBe(false)
  })

  it('turns a handler that throws into one error chunk instead of a throw (A9)', async () => {
    const built = createProcessStreamSource({
      command: () => {
        throw new Error('bad command')
      },
      handlers: { onLine: () => [], onExit: () => [] },
    })
    const chunks = await collect(built.stream())
    expect(chunks).toHaveLength(1)
    expect(chunks[0]?.type).toBe('error')
    expect(chunks[0]?.content).toContain('bad command')
  })
})
