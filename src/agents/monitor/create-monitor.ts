import { TranscriptGoneError } from '../runstate/errors.js'
import { createClaudeSource } from './claude-sessions.js'
import { createCodexSource } from './codex-sessions.js'
import { createOpencodeSource } from './opencode-source.js'
import { createFileGate } from './file-gate.js'
import type { MonitorEntry } from './monitor-entry.js'
import { diffEntries } from './monitor-events.js'
import type { MonitorEvent } from './monitor-events.js'
import { resolveMonitorOptions } from './monitor-options.js'
import type { MonitorOptions } from './monitor-options.js'
import { createCounters } from './monitor-stats.js'
import type { MonitorStats } from './monitor-stats.js'
import { gateNotification } from './notification-gate.js'
import type { NotificationTrack } from './notification-gate.js'
import { createRootWatcher } from './root-watcher.js'
import type { RootWatcher } from './root-watcher.js'
import { buildEntry, nextActivityAt } from './session-entry.js'
import { sameStamp } from './session-source.js'
import type { FileStamp, FoundSession, SessionObservation, SessionReader, SessionSource } from './session-source.js'
import { deriveSessionState } from './session-state.js'
import type { SessionState } from './session-state.js'

/**
 * `createMonitor`: every local Claude Code and Codex session (and, with `opencodeUrl`, OpenCode's)
 * as one entry each, kept current by ticks. A tick lists the sessions (listings and stats), reads
 * only the files whose stamp changed (each through its agent's incremental tail, at most
 * `maxOpenFiles` at once), derives each entry (session-state.ts), diffs against the previous
 * entries (monitor-events.ts), gates notifications (notification-gate.ts), then tells
 * subscribers, in that order. Failures are recorded (an entry's
 * `error`, the state's `warnings`), never thrown by a tick.
 */

export interface MonitorState {
  /** One entry per session, by key. A new array whenever anything changed. */
  entries: readonly MonitorEntry[]
  /** Monitor-clock time of the first tick: activity before it is baselined, never notified. */
  watchStartedAt?: number
  /** Scan and listener failures, newest last (at most 50). */
  warnings: readonly string[]
  /**
   * Folders the last tick could not list, as `"<path> (<code>)"` (e.g. a day folder at mode 000):
   * skipped, so the sessions elsewhere are still listed. Replaced by every tick.
   */
  skipped: readonly string[]
}

export interface Monitor {
  /** One pass. Ticks never overlap: a call during a tick runs after it. Resolves with the events it emitted. */
  tick: () => Promise<readonly MonitorEvent[]>
  /** The first tick, then the polling timer and file-system events. */
  start: () => Promise<void>
  /** Stops the timer and the watchers, and waits for a running tick. */
  stop: () => Promise<void>
  /** Events in tick order; a listener that throws is recorded in `warnings`. */
  subscribe: (listener: (event: MonitorEvent) => void) => () => void
  getState: () => MonitorState
  stats: () => MonitorStats
}

interface Tracked {
  found: FoundSession
  reader: SessionReader
  readStamp?: FileStamp
  /** Reads so far: with the process evidence, what the cached observation depends on. */
  reads: number
  observed?: { key: string; value: SessionObservation }
  mark?: string
  lastActivityAt: number
  error?: string
  track: NotificationTrack
  /** The window note already warned of (a huge transcript read through windows). */
  noted?: string
}

const MAX_WARNINGS = 50
const EVENT_DEBOUNCE_MS = 25

export function createMonitor(options: MonitorOptions): Monitor {
  const config = resolveMonitorOptions(options)
  const counters = createCounters()
  const gate = createFileGate(config.maxOpenFiles)
  const sources: SessionSource[] = [createClaudeSource({ home: config.home, counters }), createCodexSource({ codexHome: config.codexHome, counters })]
  const tracked = new Map<string, Tracked>()
  const listeners = new Set<(event: MonitorEvent) => void>()
  let entries = new Map<string, MonitorEntry>()
  let state: MonitorState = { entries: [], warnings: [], skipped: [] }
  if (config.opencodeUrl !== undefined) {
    sources.push(createOpencodeSource({ baseUrl: config.opencodeUrl, ...(config.opencodeAuth !== undefined ? { auth: config.opencodeAuth } : {}), dataDir: config.opencodeDataDir, quietWhenDown: config.opencodeOptional, note: (message) => warn(message) }))
  }
  let queue: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let debounce: NodeJS.Timeout | undefined
  let watcher: RootWatcher | undefined
  let started = false
  let lastTickAt: number | undefined

  function warn(message: string): void {
    state = { ...state, warnings: [...state.warnings, message].slice(-MAX_WARNINGS) }
  }

  /** Step 1: every source's sessions; a source whose scan failed keeps its sessions as they were. */
  async function discover(skipped: string[]): Promise<FoundSession[]> {
    const results = await Promise.all(
      sources.map((source) =>
        source.scan(gate, skipped).catch((error: unknown) => {
          warn(`listing ${source.agent} sessions failed: ${describe(error)}`)
          return [...tracked.values()].filter((t) => t.found.agent === source.agent).map((t) => t.found)
        }),
      ),
    )
    return results.flat()
  }

  /** Step 2: read the files whose stamp changed; a file gone meanwhile drops out of this tick. */
  async function readChanged(found: FoundSession[], now: number): Promise<FoundSession[]> {
    const gone = new Set<string>()
    await Promise.all(
      found.map(async (session) => {
        const source = sources.find((s) => s.agent === session.agent) as SessionSource
        let item = tracked.get(session.key)
        if (item === undefined) {
          item = { found: session, reader: source.createReader(session), reads: 0, lastActivityAt: now, track: { episode: 0, episodeSince: now } }
          tracked.set(session.key, item)
        }
        item.found = session
        const stamp = session.stamp
        if (stamp === undefined || sameStamp(stamp, item.readStamp)) return
        const before = item.readStamp
        try {
          await item.reader.read(gate, session)
          delete item.error
        } catch (error) {
          if (TranscriptGoneError.isInstance(error)) {
            gone.add(session.key)
            return
          }
          item.error = describe(error)
        }
        counters.fileReads += 1
        item.reads += 1
        counters.transcriptBytes += before === undefined || before.ino !== stamp.ino || stamp.size < before.size ? stamp.size : stamp.size - before.size
        item.readStamp = stamp
      }),
    )
    return found.filter((session) => !gone.has(session.key))
  }

  /** Steps 3–4: entries from observations, then the events and notifications that follow. */
  function derive(found: FoundSession[], now: number, watchStartedAt: number): MonitorEvent[] {
    const next = new Map<string, MonitorEntry>()
    const notifications: MonitorEvent[] = []
    for (const session of found) {
      const item = tracked.get(session.key) as Tracked
      // Observing is pure over the last read and the live evidence: reuse it while neither changed.
      const observedKey = `${item.reads}|${session.process}|${session.pid ?? ''}|${session.liveMark ?? ''}|${session.path}`
      const unchanged = item.observed?.key === observedKey
      const observation = unchanged && item.observed !== undefined ? item.observed.value : item.reader.observe(session)
      item.observed = { key: observedKey, value: observation }
      if (observation.windowNote !== undefined && observation.windowNote !== item.noted) {
        item.noted = observation.windowNote
        warn(observation.windowNote)
      }
      item.lastActivityAt = nextActivityAt({
        ...(item.mark !== undefined ? { previousMark: item.mark } : {}),
        mark: observation.activityMark,
        previousAt: item.lastActivityAt,
        ...(observation.transcriptAt !== undefined ? { transcriptAt: observation.transcriptAt } : {}),
        fallbackAt: session.stamp?.mtimeMs ?? session.startedAt ?? now,
        previousTickAt: lastTickAt ?? now,
        now,
      })
      item.mark = observation.activityMark
      const derived = deriveSessionState({ verdict: observation.verdict, lastActivityAt: item.lastActivityAt, now, process: session.process, liveWindowMs: config.liveWindowMs, endedWindowMs: config.endedWindowMs })
      const previous = entries.get(session.key)
      const same = unchanged && previous !== undefined && sameDerived(previous, derived) && previous.lastActivityAt === item.lastActivityAt && previous.error === item.error
      const entry = same ? previous : buildEntry(session, observation, derived, item.lastActivityAt, item.error)
      if (previous !== undefined && (previous.state !== entry.state || previous.status !== entry.status)) item.track = { ...item.track, episode: item.track.episode + 1, episodeSince: now }
      const gated = gateNotification({ entry, track: item.track, now, watchStartedAt, settleMs: config.settleMs })
      item.track = gated.track
      if (gated.notify !== undefined) notifications.push({ type: 'notification', reason: gated.notify, entry })
      next.set(session.key, entry)
    }
    for (const key of tracked.keys()) if (!next.has(key)) tracked.delete(key)
    const first = state.watchStartedAt === undefined
    const events = first ? [{ type: 'snapshot' as const, entries: sortedEntries(next) }] : diffEntries(entries, next)
    entries = next
    return [...events, ...notifications]
  }

  async function runTick(): Promise<readonly MonitorEvent[]> {
    const now = config.clock()
    const watchStartedAt = state.watchStartedAt ?? now
    const skipped: string[] = []
    const found = await readChanged(await discover(skipped), now)
    const events = derive(found, now, watchStartedAt)
    lastTickAt = now
    counters.ticks += 1
    const changed = events.some((event) => event.type !== 'notification') || state.watchStartedAt === undefined
    skipped.sort()
    const sameSkipped = skipped.length === state.skipped.length && skipped.every((path, index) => path === state.skipped[index])
    state = { ...state, watchStartedAt, ...(changed ? { entries: sortedEntries(entries) } : {}), ...(sameSkipped ? {} : { skipped }) }
    for (const event of events) emit(event)
    if (started) watcher?.sync(sources.flatMap((source) => source.watchRoots()))
    return events
  }

  function emit(event: MonitorEvent): void {
    for (const listener of [...listeners]) {
      try {
        listener(event)
      } catch (error) {
        warn(`a monitor listener threw on ${event.type}: ${describe(error)}`)
      }
    }
  }

  function tick(): Promise<readonly MonitorEvent[]> {
    const next = queue.then(runTick, runTick)
    queue = next.catch(() => undefined)
    return next
  }

  function wake(): void {
    if (!started || debounce !== undefined) return
    debounce = setTimeout(() => {
      debounce = undefined
      void tick().catch((error: unknown) => warn(`tick failed: ${describe(error)}`))
    }, EVENT_DEBOUNCE_MS)
  }

  return {
    tick,
    async start() {
      if (started) return
      started = true
      if (config.watch) watcher = createRootWatcher(wake, warn)
      await tick()
      timer = setInterval(() => void tick().catch((error: unknown) => warn(`tick failed: ${describe(error)}`)), config.pollIntervalMs)
    },
    async stop() {
      started = false
      if (timer !== undefined) clearInterval(timer)
      if (debounce !== undefined) clearTimeout(debounce)
      timer = undefined
      debounce = undefined
      watcher?.close()
      watcher = undefined
      await queue
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getState: () => state,
    stats: () => ({
      ...counters,
      bytesRead: counters.transcriptBytes + counters.registryBytes,
      openFiles: gate.open(),
      peakOpenFiles: gate.peak(),
      watching: !started ? 'stopped' : (watcher?.mode() ?? 'polling'),
    }),
  }
}

function sameDerived(entry: MonitorEntry, derived: SessionState): boolean {
  return entry.state === derived.state && entry.status === derived.status && entry.detail === derived.detail && entry.endedBy === derived.endedBy
}

function sortedEntries(map: ReadonlyMap<string, MonitorEntry>): MonitorEntry[] {
  return [...map.keys()].sort().map((key) => map.get(key) as MonitorEntry)
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
