import type { AgentMessage, AgentUsage } from '../../contract/agent-chat.js'
import { MAX_VALUE_DEPTH } from '../runstate/cap-depth.js'
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
  /** Records the fold left out and why (a usage with an invalid token count). */
  warnings: string[]
}

export interface TranscriptFold {
  push: (value: unknown) => void
  /**
   * Marks, in file order, a line that could not be read (over the line cap): a system message
   * saying so. It moves no state: the state stays what the lines around it say.
   */
  placeholder: (text: string) => void
  snapshot: () => FoldSnapshot
}

export function createTranscriptFold(options: TranscriptFoldOptions = {}): TranscriptFold {
  const store = new FoldStore(options.maxMessages ?? Number.POSITIVE_INFINITY)
  const applyOptions = { maxToolOutputChars: options.maxToolOutputChars ?? 4096 }
  const order = createCausalOrder<JsonObject>((record) => applyRecord(store, record, applyOptions))
  let mainIsSidechain: boolean | undefined
  /** Seqs of placeholder messages: never the "last message" a state is derived from. */
  const placeholders = new Set<number>()

  function lastReal(): AgentMessage | undefined {
    for (let at = store.messages.length - 1; at >= 0; at -= 1) {
      const message = store.messages[at] as AgentMessage
      if (!placeholders.has(message.seq)) return message
    }
    return undefined
  }

  function derive(): FoldSnapshot {
    const input = { scalars: store.scalars, last: lastReal(), pendingWork: store.pendingWork.size }
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
      warnings: foldWarnings(s),
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
    placeholder(text) {
      const index = store.push({ kind: 'lifecycle', role: 'system', text })
      placeholders.add(index + 1)
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

function foldWarnings(s: FoldStore['scalars']): string[] {
  const shown = s.usageWarnings ?? []
  const more = (s.badUsage ?? 0) - shown.length
  const out = more > 0 ? [...shown, `${more} more assistant messages with invalid token counts not counted.`] : [...shown]
  const elided = s.elidedInputs ?? 0
  if (elided > 0) out.push(`${elided} tool input${elided === 1 ? ' was' : 's were'} nested deeper than ${MAX_VALUE_DEPTH} levels; the deeper part is elided.`)
  return out
}
