import type { Message } from '../../../../src/contract/message.js'
import type { StreamChunk, StreamSource } from '../../../../src/contract/stream.js'
import type { AgentRunStateSource } from '../../../../src/contract/live-agent-adapter.js'
import type { AgentSnapshot } from '../../../../src/contract/agent-snapshot.js'
import { isProcessAlive, listDescendantPids } from '../../../../src/agents/process/kill-process-tree.js'
import { readdirSync, readFileSync } from 'node:fs'

/** Small helpers shared by the adapters' live tests. */

let counter = 0
export function userMessage(content: string): Message {
  counter += 1
  return { id: `user-${counter}`, role: 'user', content, status: 'complete', createdAt: new Date(0) }
}

export async function collect(source: StreamSource): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for await (const chunk of source.stream()) chunks.push(chunk)
  return chunks
}

export const textOf = (chunks: readonly StreamChunk[], type: StreamChunk['type'] = 'text'): string =>
  chunks.filter((chunk) => chunk.type === type).map((chunk) => chunk.content ?? '').join('')
export const typesOf = (chunks: readonly StreamChunk[]): string[] => chunks.map((chunk) => chunk.type)

/** Resolves with the first snapshot that satisfies `predicate` (checking the current one first). */
export function waitForSnapshot(source: AgentRunStateSource, predicate: (snapshot: AgentSnapshot) => boolean, timeoutMs = 30_000): Promise<AgentSnapshot> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const snapshot = source.getSnapshot()
      if (snapshot && predicate(snapshot)) {
        cleanup()
        resolve(snapshot)
        return true
      }
      return false
    }
    const unsubscribe = source.subscribe(() => void check())
    const timer = setTimeout(() => {
      cleanup()
      reject(new Error(`waitForSnapshot: not reached within ${timeoutMs} ms; last ${JSON.stringify(source.getSnapshot())}`))
    }, timeoutMs)
    function cleanup(): void {
      clearTimeout(timer)
      unsubscribe()
    }
    check()
  })
}

/** Every snapshot a source publishes, in order, as `state/status`. */
export function recordSnapshots(source: AgentRunStateSource): { seen: AgentSnapshot[]; stop: () => void } {
  const seen: AgentSnapshot[] = []
  const stop = source.subscribe(() => {
    const snapshot = source.getSnapshot()
    if (snapshot) seen.push(snapshot)
  })
  return { seen, stop }
}

/** Descendants of this test process whose command line contains `needle`. */
export function descendantsRunning(needle: string): number[] {
  return listDescendantPids(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(needle)
    } catch {
      return false
    }
  })
}

/**
 * Every live (not zombie) process on the machine whose argv is exactly `argv`: orphans re-parented
 * away from this process are nobody's descendants, so only a machine-wide scan finds them.
 */
export function processesRunning(...argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') !== wanted) continue
      if (/\)\s+Z\s/.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue
      pids.push(Number(entry))
    } catch {
      // Exited while we looked.
    }
  }
  return pids
}

export async function waitUntil(predicate: () => boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`waitUntil: ${what} not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export const alive = (pids: readonly number[]): number[] => pids.filter(isProcessAlive)
