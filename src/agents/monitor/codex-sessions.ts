import { join } from 'node:path'
import type { AgentChat } from '../../contract/agent-chat.js'
import { readRolloutOrigin } from '../codex/locate-rollout.js'
import type { RolloutOrigin } from '../codex/locate-rollout.js'
import { emptyCodexChat } from '../codex/read-chat.js'
import { parseRolloutFileName } from '../codex/rollout-file-name.js'
import { createRolloutTail } from '../codex/rollout-tail.js'
import type { RolloutTail } from '../codex/rollout-tail.js'
import type { FileGate } from './file-gate.js'
import type { MonitorCounters } from './monitor-stats.js'
import { listDirectory, messageMark, observeChat, stampOf } from './session-source.js'
import type { FoundSession, SessionReader, SessionSource } from './session-source.js'

/**
 * Codex sessions: every rollout under `<codexHome>/sessions/YYYY/MM/DD/` (and the early flat
 * layout), one per thread id; a plain `.jsonl` wins over its `.zst` twin, and a rollout compressed
 * in place keeps its reader (the rollout tail follows it). Codex has no process registry, so the
 * process evidence is always `none`: its own lifecycle events and silence decide.
 */
export function createCodexSource(options: { codexHome: string; counters: MonitorCounters }): SessionSource {
  const sessionsDir = join(options.codexHome, 'sessions')

  async function rolloutPaths(gate: FileGate, skipped: string[]): Promise<string[]> {
    const years = (await listDirectory(gate, sessionsDir, skipped)).filter((d) => d.isDirectory() && /^\d{4}$/.test(d.name)).map((d) => join(sessionsDir, d.name))
    const months = (await Promise.all(years.map((dir) => subdirectories(gate, dir, skipped)))).flat()
    const days = (await Promise.all(months.map((dir) => subdirectories(gate, dir, skipped)))).flat()
    // The top folder was listed above (and any failure recorded): list it again only for its files.
    const files = await Promise.all([sessionsDir, ...days].map(async (dir) => (await listDirectory(gate, dir, dir === sessionsDir ? [] : skipped)).filter((d) => d.isFile()).map((d) => join(dir, d.name))))
    return files.flat()
  }

  async function scan(gate: FileGate, skipped: string[]): Promise<FoundSession[]> {
    const byId = new Map<string, { path: string; compressed: boolean }>()
    for (const path of (await rolloutPaths(gate, skipped)).sort()) {
      const name = parseRolloutFileName(path.slice(path.lastIndexOf('/') + 1))
      if (name === undefined) continue
      const known = byId.get(name.id)
      if (known === undefined || (known.compressed && !name.compressed)) byId.set(name.id, { path, compressed: name.compressed })
    }
    const ids = [...byId.keys()].sort()
    const stamps = await Promise.all(ids.map((id) => stampOf(byId.get(id)?.path ?? '')))
    const found: FoundSession[] = []
    ids.forEach((id, index) => {
      const stamp = stamps[index]
      const path = byId.get(id)?.path
      if (stamp === undefined || path === undefined) return
      found.push({ key: `codex:${id}`, agent: 'codex', sessionId: id, path, stamp, process: 'none' })
    })
    return found
  }

  function createReader(): SessionReader {
    let tail: RolloutTail | undefined
    let chat: AgentChat = emptyCodexChat()
    let origin: RolloutOrigin | null | undefined
    let title: string | undefined
    return {
      async read(gate, found) {
        if (origin === undefined) {
          origin = (await gate.run(() => readRolloutOrigin(found.path))) ?? null
          options.counters.originReads += 1
        }
        // The same thread compressed in place is the same rollout: its tail follows it.
        if (tail === undefined || (found.path !== tail.path && found.path !== `${tail.path}.zst`)) tail = createRolloutTail(found.path)
        const current = tail
        chat = await gate.run(() => current.read())
        title ??= chat.messages.find((message) => message.kind === 'text' && message.role === 'user')?.text?.trim().slice(0, 200)
      },
      observe() {
        const observed = observeChat(chat)
        const last = chat.messages.at(-1)
        const at = last?.at === undefined ? undefined : Date.parse(last.at)
        const transcriptAt = at === undefined || Number.isNaN(at) ? undefined : at
        return {
          ...observed,
          ...(origin?.cwd !== undefined ? { cwd: origin.cwd } : {}),
          ...(title !== undefined ? { title } : {}),
          ...(transcriptAt !== undefined ? { transcriptAt } : {}),
          activityMark: `${messageMark(last, transcriptAt)}|${chat.state}|${chat.status}|${chat.detail ?? ''}`,
        }
      },
    }
  }

  return { agent: 'codex', watchRoots: () => [sessionsDir], scan, createReader }
}

async function subdirectories(gate: FileGate, dir: string, skipped: string[]): Promise<string[]> {
  return (await listDirectory(gate, dir, skipped)).filter((d) => d.isDirectory() && /^\d{2}$/.test(d.name)).map((d) => join(dir, d.name))
}
