import type { AgentMessage, AgentUsage } from '../../contract/agent-chat.js'
import type { DialogResolution } from './dialog-outcome.js'

/**
 * The mutable state of one transcript fold, with a checkpoint/rollback journal.
 *
 * Why a journal: lines whose parent has not appeared yet are held back so messages come out in
 * causal order (see causal-order.ts). A snapshot must still show them, so it applies the held
 * lines provisionally and rolls them back afterwards; committed state never sees them early.
 * Only mutations made while a checkpoint is open are journaled, so the hot path pays nothing.
 *
 * Message objects are never mutated once stored (a patch replaces the object), so an array
 * handed out by a snapshot stays valid while the fold goes on.
 */

/** The class of the last state-bearing line (run-state-readers.md §3.1 `lastKey`, refined). */
export type FoldKey =
  | ''
  | 'user:text'
  | 'assistant:text'
  | 'assistant:end'
  | 'assistant:streaming'
  | 'tool_use'
  | 'dialog'
  | 'tool_result'
  | 'task-notification'
  | 'error'
  | 'max_tokens'
  | 'interrupt'
  | 'exit'
  | 'api-retry'

export interface FoldScalars {
  lastKey: FoldKey
  /** Epoch ms of the last state-bearing line. */
  lastStateAtMs?: number
  /** A turn-end marker (turn_duration, stop_hook_summary) came after the last assistant output. */
  turnEnded: boolean
  /** The tool named by the last running tool_use, for `detail`. */
  lastToolName?: string
  errorText?: string
  errorTag?: string
  retryText?: string
  sessionId?: string
  /** The working directory named by the newest line that has one (monitors show it). */
  cwd?: string
  /** The first typed prompt, cut to 200 chars: what the session is about (monitors show it). */
  title?: string
  /** The previous line was the local-command caveat: a plain user line after it is command output. */
  afterCaveat?: boolean
  /** Merging consecutive blocks of one API message: its id, the block kind, and the message index. */
  mergeMessageId?: string
  mergeKind?: 'text' | 'thinking'
  mergeIndex?: number
  /** Usage of the current API message (lines repeat it; counted once). */
  usageMessageId?: string
  usageLast?: AgentUsage
  usage?: AgentUsage
  /** Usages left out for a count that is not a non-negative integer: the first few described, and how many. */
  usageWarnings?: readonly string[]
  badUsage?: number
  /** Tool inputs nested deeper than the cap, whose deep part was elided (cap-depth.ts). */
  elidedInputs?: number
}

interface Checkpoint {
  scalars: FoldScalars
  length: number
  replaced: Map<number, AgentMessage>
  added: Array<[Map<string, unknown> | Set<string>, string, unknown, boolean]>
  sets: { pendingWork: Set<string>; openTools: Set<string>; openDialogs: Set<string> }
}

export interface EarlyResult {
  resolution: DialogResolution
}

export class FoldStore {
  scalars: FoldScalars = { lastKey: '', turnEnded: false }
  /** Messages from seq `base + 1` on; older ones were dropped by the window. */
  messages: AgentMessage[] = []
  base = 0
  /** tool_use id → absolute message index. */
  readonly tools = new Map<string, number>()
  /** Every tool id seen as a tool_use or tool_result (spool suppression needs them). */
  readonly toolIds = new Set<string>()
  /** tool_results whose tool_use has not appeared (yet). */
  readonly early = new Map<string, EarlyResult>()
  /** Background Bash task id (`backgroundTaskId`) → its tool_use id, until a notification settles it. */
  readonly backgroundTools = new Map<string, string>()
  pendingWork = new Set<string>()
  openTools = new Set<string>()
  openDialogs = new Set<string>()
  private checkpoint: Checkpoint | undefined

  constructor(private readonly maxMessages: number) {}

  get size(): number {
    return this.base + this.messages.length
  }

  /** Appends a message; its seq is its absolute position + 1. Returns the absolute index. */
  push(message: Omit<AgentMessage, 'seq'>): number {
    const index = this.size
    this.messages.push({ seq: index + 1, ...message })
    if (this.checkpoint === undefined && this.messages.length >= this.maxMessages * 2) this.trim()
    return index
  }

  get(index: number): AgentMessage | undefined {
    return index >= this.base ? this.messages[index - this.base] : undefined
  }

  /** Replaces the message at an absolute index (dropped ones are ignored). */
  replace(index: number, message: AgentMessage): void {
    const at = index - this.base
    if (at < 0 || at >= this.messages.length) return
    const cp = this.checkpoint
    if (cp !== undefined && at < cp.length && !cp.replaced.has(at)) cp.replaced.set(at, this.messages[at] as AgentMessage)
    this.messages[at] = message
  }

  mapSet<V>(map: Map<string, V>, key: string, value: V): void {
    this.journal(map as Map<string, unknown>, key)
    map.set(key, value)
  }

  mapDelete<V>(map: Map<string, V>, key: string): void {
    if (!map.has(key)) return
    this.journal(map as Map<string, unknown>, key)
    map.delete(key)
  }

  setAdd(set: Set<string>, key: string): void {
    if (set.has(key)) return
    this.journal(set, key)
    set.add(key)
  }

  /** Opens a checkpoint: later mutations can be undone by `rollback`. Not reentrant. */
  begin(): void {
    this.checkpoint = {
      scalars: { ...this.scalars },
      length: this.messages.length,
      replaced: new Map(),
      added: [],
      sets: { pendingWork: new Set(this.pendingWork), openTools: new Set(this.openTools), openDialogs: new Set(this.openDialogs) },
    }
  }

  rollback(): void {
    const cp = this.checkpoint
    if (cp === undefined) return
    this.checkpoint = undefined
    this.scalars = cp.scalars
    this.messages.length = cp.length
    for (const [at, message] of cp.replaced) this.messages[at] = message
    for (let i = cp.added.length - 1; i >= 0; i -= 1) {
      const [container, key, previous, had] = cp.added[i] as Checkpoint['added'][number]
      if (container instanceof Map) {
        if (had) container.set(key, previous)
        else container.delete(key)
      } else if (!had) {
        container.delete(key)
      }
    }
    this.pendingWork = cp.sets.pendingWork
    this.openTools = cp.sets.openTools
    this.openDialogs = cp.sets.openDialogs
  }

  private journal(container: Map<string, unknown> | Set<string>, key: string): void {
    const cp = this.checkpoint
    if (cp === undefined) return
    const had = container.has(key)
    cp.added.push([container, key, container instanceof Map ? container.get(key) : undefined, had])
  }

  /** Drops the oldest messages beyond the window (seqs stay absolute). */
  private trim(): void {
    const drop = this.messages.length - this.maxMessages
    this.messages.splice(0, drop)
    this.base += drop
    for (const [id, index] of this.tools) if (index < this.base) this.tools.delete(id)
    const merge = this.scalars.mergeIndex
    if (merge !== undefined && merge < this.base) this.scalars = { ...this.scalars, mergeIndex: undefined, mergeMessageId: undefined, mergeKind: undefined }
  }
}
