import type { AgentMessage, AgentUsage } from '../runstate/agent-chat.js'
import { applyRecord } from './apply-record.js'
import { createCausalOrder } from './causal-order.js'
import { deriveFoldState } from './derive-state.js'
import type { DerivedState } from './derive-state.js'
import { FoldStore } from './fold-store.js'
import type { JsonObject } from './record-fields.js'
import { asObject, str } from './record-fields.js'

/**
 * The Claude Code transcript fold: records in file order in, messages in logical order and the
 * transcript-derived state out. Incremental: `push` one record at a time (a full read and any
 * split into appends give the same snapshot), `snapshot` whenever a view is needed.
 */

export interface TranscriptFoldOptions {
  /** Tool outputs longer than this are cut in `messages` (display only; default 4096). */
  maxToolOutputChars?: number
  /**
   * Keep only the newest N messages in memory (seqs stay absolute). Default: all. A window bounds
   * memory on huge transcripts; state derivation only needs the tail.
   */
  maxMessages?: number
}

export interface FoldSnapshot extends DerivedState {
  sessionId?: string
  /** The working directory of the newest line that names one. */
  cwd?: string
  /** The first typed prompt (≤ 200 chars); kept when `maxMessages` drops the message itself. */
  title?: string
  messages: AgentMessage[]
  usage?: AgentUsage
  /** Epoch ms of the last state-bearing line (registry and marker freshness compare to it). */
  lastStateAtMs?: number
  /** True when a tool id appeared as a tool_use or tool_result (spool suppression). */
  hasToolId: (id: string) => boolean
  pendingWork: number
  /** The fold's state came only from the assistant's pending background work. */
  holding: boolean
}

export interface TranscriptFold {
  push: (value: unknown) => void
  snapshot: () => FoldSnapshot
}

export function createTranscriptFold(options: TranscriptFoldOptions = {}): TranscriptFold {
  const store = new FoldStore(options.maxMessages ?? Number.POSITIVE_INFINITY)
  const applyOptions = { maxToolOutputChars: options.maxToolOutputChars ?? 4096 }
  const order = createCausalOrder<JsonObject>((record) => applyRecord(store, record, applyOptions))
  let mainIsSidechain: boolean | undefined

  function derive(): FoldSnapshot {
    const input = { scalars: store.scalars, last: store.messages[store.messages.length - 1], pendingWork: store.pendingWork.size }
    const derived = deriveFoldState(input)
    const holding = derived.state === 'working' && input.pendingWork > 0 && deriveFoldState({ ...input, pendingWork: 0 }).state !== 'working'
    const toolIds = store.toolIds
    const s = store.scalars
    return {
      ...derived,
      ...(s.sessionId !== undefined ? { sessionId: s.sessionId } : {}),
      ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
      ...(s.title !== undefined ? { title: s.title } : {}),
      messages: store.messages.slice(),
      ...(s.usage !== undefined ? { usage: s.usage } : {}),
      ...(s.lastStateAtMs !== undefined ? { lastStateAtMs: s.lastStateAtMs } : {}),
      // Reads the live set: valid for composing this snapshot now (ids are only ever added).
      hasToolId: (id) => toolIds.has(id),
      pendingWork: store.pendingWork.size,
      holding,
    }
  }

  return {
    push(value) {
      const record = asObject(value)
      if (record === undefined) return
      // The main stream is the chain of the first conversation line: a main transcript's
      // sidechain lines (inline subagents, ≤2.0) stay out; a subagent's own file reads whole.
      if (typeof record.isSidechain === 'boolean') {
        mainIsSidechain ??= record.isSidechain
        if (record.isSidechain !== mainIsSidechain) return
      }
      const uuid = str(record.uuid)
      const parent = str(record.parentUuid)
      order.push({ ...(uuid !== undefined ? { uuid } : {}), ...(parent !== undefined ? { parent } : {}), value: record })
    },
    snapshot() {
      const held = order.held()
      if (held.length === 0) return derive()
      store.begin()
      try {
        for (const record of held) applyRecord(store, record, applyOptions)
        const snapshot = derive()
        const ids = new Set<string>()
        for (const record of held) collectToolIds(record, ids)
        const committed = snapshot.hasToolId
        return { ...snapshot, hasToolId: (id) => ids.has(id) || committed(id) }
      } finally {
        store.rollback()
      }
    },
  }
}

function collectToolIds(record: JsonObject, into: Set<string>): void {
  const content = asObject(record.message)?.content
  if (!Array.isArray(content)) return
  for (const raw of content) {
    const block = asObject(raw)
    const id = str(block?.id) ?? str(block?.tool_use_id)
    if (id !== undefined) into.add(id)
  }
}
