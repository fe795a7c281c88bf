import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import { isIdentifier } from './identifier.js'
import { findNonJson, type JsonObject } from './json.js'
import type { TurnKind } from './trace.js'

/**
 * The decision record a committed turn carries on its `done` chunk (`metadata.chatrail`). A
 * controller that keeps it on the assistant message lets a fresh session rebuild the state from
 * history alone (a reload, another tab). It holds names and the context patch, never the reply.
 */
export interface DecisionRecord {
  readonly v: 1
  readonly messageId: string
  /** FNV-1a of the user message's exact text: an edited message no longer matches its record. */
  readonly input: string
  readonly kind: TurnKind
  readonly routeId?: string
  /** The machine event; absent when the turn made no transition (a reply-only route, a re-prompt, a form slot). */
  readonly event?: string
  /** The turn started over: back to `initial` with the definition's context. */
  readonly restart?: true
  readonly fromState: string
  readonly toState: string
  readonly turnId: string
  /** The trace outcome when not `ok` (a re-prompt, a stale UI event), so a resumed session's replay traces it as the turn did. */
  readonly outcome?: 'refused' | 'unavailable'
  /** The trace's fixed phrase (`guard-refused`, `slot-filled`, `restart`, …), for the same reason. */
  readonly reason?: string
  /** The context patch's defined values. */
  readonly assign?: JsonObject
  /** Context keys the patch cleared (`undefined` does not survive JSON, so they are listed). */
  readonly unset?: readonly string[]
  /** HMAC-SHA-256 of the rest (base64url), when the session that wrote it has a `recordKey` (record-signing.ts). */
  readonly sig?: string
}

/** Splits a context patch into the record's `assign` and `unset` fields. */
export function recordPatch(patch: JsonObject): Pick<DecisionRecord, 'assign' | 'unset'> {
  const assign: JsonObject = {}
  const unset: string[] = []
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) unset.push(key)
    else assign[key] = value
  }
  return { ...(Object.keys(assign).length > 0 ? { assign } : {}), ...(unset.length > 0 ? { unset } : {}) }
}

/** The context patch a record stands for (the inverse of `recordPatch`). */
export function patchOf(record: DecisionRecord): JsonObject | undefined {
  if (!record.assign && !record.unset) return undefined
  const patch: JsonObject = { ...record.assign }
  for (const key of record.unset ?? []) patch[key] = undefined
  return patch
}

/** 32-bit FNV-1a as 8 hex digits. Pure. Used as a fingerprint, not for secrecy. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

const KINDS: ReadonlySet<string> = new Set(['deterministic', 'agentic', 'repaired', 'fallback'])

/** The record on an assistant message, when it is well-formed; anything else is ignored. */
export function readDecisionRecord(message: Message): DecisionRecord | undefined {
  const raw = (message.metadata as { chatrail?: unknown } | undefined)?.chatrail
  if (typeof raw !== 'object' || raw === null) return undefined
  const r = raw as Record<string, unknown>
  if (r.v !== 1 || typeof r.messageId !== 'string' || typeof r.input !== 'string' || typeof r.turnId !== 'string') return undefined
  if (typeof r.kind !== 'string' || !KINDS.has(r.kind)) return undefined
  if ((r.event !== undefined && !isIdentifier(r.event)) || (r.restart !== undefined && r.restart !== true) || !isIdentifier(r.fromState) || !isIdentifier(r.toState)) return undefined
  if (r.routeId !== undefined && !isIdentifier(r.routeId)) return undefined
  if (r.assign !== undefined && (typeof r.assign !== 'object' || r.assign === null || Array.isArray(r.assign) || findNonJson(r.assign))) return undefined
  if (r.unset !== undefined && (!Array.isArray(r.unset) || r.unset.some((key) => typeof key !== 'string'))) return undefined
  if (r.sig !== undefined && typeof r.sig !== 'string') return undefined
  if ((r.outcome !== undefined && r.outcome !== 'refused' && r.outcome !== 'unavailable') || (r.reason !== undefined && !isIdentifier(r.reason))) return undefined
  return r as unknown as DecisionRecord
}

/** `done` (the adapter's own `base` when there is one, its other fields kept), carrying the record. */
export function doneWithRecord(record: DecisionRecord, base?: StreamChunk): StreamChunk {
  return Object.freeze({ ...base, type: 'done', metadata: { ...base?.metadata, chatrail: record } })
}
