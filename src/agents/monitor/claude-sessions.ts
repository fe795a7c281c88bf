import { basename, join } from 'node:path'
import { composeChat } from '../claude-code/compose-chat.js'
import { transcriptPathFor } from '../claude-code/locate.js'
import { emptyView } from '../claude-code/read-chat.js'
import { isRegistryProcessAlive, readRegistryFile } from '../claude-code/registry.js'
import type { ClaudeRegistryEntry } from '../claude-code/registry.js'
import { createTranscriptTail } from '../claude-code/transcript-tail.js'
import type { TranscriptTail, TranscriptView } from '../claude-code/transcript-tail.js'
import type { FileGate } from './file-gate.js'
import type { MonitorCounters } from './monitor-stats.js'
import { listDirectory, messageMark, observeChat, sameStamp, stampOf } from './session-source.js'
import type { FileStamp, FoundSession, SessionObservation, SessionReader, SessionSource } from './session-source.js'
import type { ProcessEvidence } from './session-state.js'

/**
 * Claude Code sessions: every `<home>/.claude/projects/<slug>/<sessionId>.jsonl` (subagent files in
 * deeper folders are not sessions), plus live processes from the CLI's registry
 * (`<home>/.claude/sessions/<pid>.json`) that have not written a transcript yet. The registry gives
 * the process evidence: a live pid for the session → `alive`; an entry whose pid died, or a session
 * once seen alive whose entry went away (exit, `/clear`) → `gone`.
 *
 * Each transcript is read by the reader's own incremental tail and composed by its `composeChat`
 * with the registry entry of a live process (live hook signals are per-run and not the monitor's).
 */

/** Messages a session keeps in memory: the monitor needs only the newest ones (the title is kept by the fold). */
const KEPT_MESSAGES = 32

interface RegistryRecord {
  stamp: FileStamp
  entry: ClaudeRegistryEntry | undefined
}

interface Registered {
  entry: ClaudeRegistryEntry
  alive: boolean
}

export function createClaudeSource(options: { home: string; counters: MonitorCounters }): SessionSource {
  const projectsDir = join(options.home, '.claude', 'projects')
  const registryDir = join(options.home, '.claude', 'sessions')
  const registryFiles = new Map<string, RegistryRecord>()
  let registered = new Map<string, Registered>()
  const everAlive = new Set<string>()

  async function scanRegistry(gate: FileGate, skipped: string[]): Promise<void> {
    const names = (await listDirectory(gate, registryDir, skipped)).filter((d) => d.isFile() && d.name.endsWith('.json')).map((d) => join(registryDir, d.name))
    const present = new Set(names)
    for (const path of registryFiles.keys()) if (!present.has(path)) registryFiles.delete(path)
    await Promise.all(
      names.map(async (path) => {
        const stamp = await stampOf(path)
        if (stamp === undefined) return registryFiles.delete(path)
        if (sameStamp(stamp, registryFiles.get(path)?.stamp)) return
        const entry = await gate.run(() => readRegistryFile(path)).catch(() => undefined)
        options.counters.registryBytes += stamp.size
        registryFiles.set(path, { stamp, entry })
      }),
    )
    const next = new Map<string, Registered>()
    for (const { entry } of registryFiles.values()) {
      if (entry === undefined || entry.sessionId === '') continue
      const alive = isRegistryProcessAlive(entry)
      const best = next.get(entry.sessionId)
      // Two entries for one session (a resume in a second process): a live one wins, then the newest.
      if (best === undefined || (alive && !best.alive) || (alive === best.alive && (entry.startedAt ?? 0) > (best.entry.startedAt ?? 0))) next.set(entry.sessionId, { entry, alive })
    }
    registered = next
  }

  function evidence(sessionId: string): { process: ProcessEvidence; pid?: number } {
    const known = registered.get(sessionId)
    if (known?.alive) {
      everAlive.add(sessionId)
      return { process: 'alive', pid: known.entry.pid }
    }
    return { process: known !== undefined || everAlive.has(sessionId) ? 'gone' : 'none' }
  }

  async function scan(gate: FileGate, skipped: string[]): Promise<FoundSession[]> {
    await scanRegistry(gate, skipped)
    const projects = (await listDirectory(gate, projectsDir, skipped)).filter((d) => d.isDirectory())
    const listings = await Promise.all(
      projects.map(async (project) => {
        const dir = join(projectsDir, project.name)
        return (await listDirectory(gate, dir, skipped)).filter((d) => d.isFile() && d.name.endsWith('.jsonl')).map((d) => join(dir, d.name))
      }),
    )
    const paths = listings.flat().sort()
    const stamps = await Promise.all(paths.map((path) => stampOf(path)))
    const found = new Map<string, FoundSession>()
    paths.forEach((path, index) => {
      const stamp = stamps[index]
      const sessionId = basename(path, '.jsonl')
      if (stamp === undefined || found.has(sessionId)) return
      found.set(sessionId, { key: `claude-code:${sessionId}`, agent: 'claude-code', sessionId, path, stamp, ...evidence(sessionId), ...registryFacts(sessionId) })
    })
    for (const [sessionId, { entry, alive }] of registered) {
      if (!alive || found.has(sessionId)) continue
      const path = transcriptPathFor({ home: options.home, cwd: entry.cwd, sessionId })
      found.set(sessionId, { key: `claude-code:${sessionId}`, agent: 'claude-code', sessionId, path, ...evidence(sessionId), ...registryFacts(sessionId) })
    }
    return [...found.values()]
  }

  function registryFacts(sessionId: string): Pick<FoundSession, 'cwd' | 'startedAt' | 'liveMark'> {
    const known = registered.get(sessionId)
    if (known === undefined) return {}
    const { entry } = known
    const liveMark = `${entry.pid}:${known.alive}:${entry.status ?? ''}:${entry.waitingFor ?? ''}:${entry.statusUpdatedAt ?? entry.updatedAt ?? ''}`
    return { cwd: entry.cwd, ...(entry.startedAt !== undefined ? { startedAt: entry.startedAt } : {}), liveMark }
  }

  function createReader(): SessionReader {
    let tail: TranscriptTail | undefined
    let view: TranscriptView = emptyView()
    return {
      async read(gate, found) {
        const current = tail ?? createTranscriptTail(found.path, { maxMessages: KEPT_MESSAGES })
        tail = current
        view = await gate.run(() => current.read())
      },
      observe(found) {
        const registry = found.process === 'alive' ? registered.get(found.sessionId)?.entry : undefined
        const chat = composeChat({ view, transcriptPath: tail === undefined ? '' : found.path, live: {}, ...(registry !== undefined ? { registry } : {}) })
        return observation(view, chat, found)
      },
    }
  }

  return { agent: 'claude-code', watchRoots: () => [projectsDir, registryDir], scan, createReader }
}

function observation(view: TranscriptView, chat: ReturnType<typeof composeChat>, found: FoundSession): SessionObservation {
  const observed = observeChat(chat)
  const cwd = view.cwd ?? found.cwd
  return {
    ...observed,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(view.title !== undefined ? { title: view.title } : {}),
    ...(view.lastStateAtMs !== undefined ? { transcriptAt: view.lastStateAtMs } : {}),
    // From the transcript's own view, so a registry status flip is a change but not new activity.
    activityMark: `${messageMark(view.messages.at(-1), view.lastStateAtMs)}|${view.state}|${view.status}|${view.detail ?? ''}`,
  }
}
