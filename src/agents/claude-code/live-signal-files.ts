import { basename } from 'node:path'
import type { Dialog } from '../../contract/dialog.js'
import { readRegularFile } from '../runstate/regular-file.js'
import { dialogFromToolUse, isDialogTool } from './dialog-mapping.js'
import { liveSignalPaths } from './live-signals.js'
import { asObject, str } from './record-fields.js'

/**
 * Reading the files the live-signal hooks write (live-signals.ts). A missing file, garbage JSON or
 * a tool other than the dialog tools reads as "no signal", never as an error.
 */

export interface SpoolDialog {
  dialog: Dialog
  toolUseId: string
  /** `session_id`, else the `transcript_path` stem; `undefined` for legacy payloads. */
  sessionId?: string
  mtimeMs: number
}

export type MarkerEvent = 'Notification' | 'Stop' | 'StopFailure'

export interface LiveMarker {
  event: MarkerEvent
  message?: string
  notificationType?: string
  error?: string
  /** StopFailure / Stop: the text of the last assistant message (e.g. "API Error: 400 …"). */
  lastAssistantMessage?: string
  sessionId?: string
  mtimeMs: number
}

export interface LiveSignals {
  spool?: SpoolDialog
  marker?: LiveMarker
}

export async function readLiveSignals(options: { runId: string; runtimeDir: string }): Promise<LiveSignals> {
  if (options.runtimeDir === '') return {}
  const paths = liveSignalPaths(options)
  const [spool, marker] = await Promise.all([readJsonWithMtime(paths.spoolPath), readJsonWithMtime(paths.markerPath)])
  const out: LiveSignals = {}
  const dialog = spool === undefined ? undefined : parseSpool(spool.value, spool.mtimeMs)
  if (dialog !== undefined) out.spool = dialog
  const parsedMarker = marker === undefined ? undefined : parseMarker(marker.value, marker.mtimeMs)
  if (parsedMarker !== undefined) out.marker = parsedMarker
  return out
}

/** A PreToolUse payload for a dialog tool → its dialog. */
export function parseSpool(value: unknown, mtimeMs: number): SpoolDialog | undefined {
  const o = asObject(value)
  const name = str(o?.tool_name)
  const toolUseId = str(o?.tool_use_id)
  if (o === undefined || name === undefined || !isDialogTool(name) || toolUseId === undefined || toolUseId === '') return undefined
  const sessionId = sessionOf(o)
  return { dialog: dialogFromToolUse(toolUseId, name, o.tool_input), toolUseId, ...(sessionId !== undefined ? { sessionId } : {}), mtimeMs }
}

/** A Notification / Stop / StopFailure payload → the marker. */
export function parseMarker(value: unknown, mtimeMs: number): LiveMarker | undefined {
  const o = asObject(value)
  const event = str(o?.hook_event_name)
  if (o === undefined || (event !== 'Notification' && event !== 'Stop' && event !== 'StopFailure')) return undefined
  const marker: LiveMarker = { event, mtimeMs }
  const message = str(o.message)
  if (message !== undefined && message.trim() !== '') marker.message = message.trim()
  const type = str(o.notification_type)
  if (type !== undefined && type !== '') marker.notificationType = type
  const error = str(o.error) ?? str(asObject(o.error)?.type)
  if (error !== undefined && error !== '') marker.error = error
  const details = str(o.error_details)
  if (details !== undefined && details !== '') marker.error = marker.error === undefined ? details : `${marker.error}: ${details}`
  const last = str(o.last_assistant_message)
  if (last !== undefined && last.trim() !== '') marker.lastAssistantMessage = last.trim()
  const sessionId = sessionOf(o)
  if (sessionId !== undefined) marker.sessionId = sessionId
  return marker
}

function sessionOf(o: Record<string, unknown>): string | undefined {
  const id = str(o.session_id)
  if (id !== undefined && id !== '') return id
  const path = str(o.transcript_path)
  return path === undefined || path === '' ? undefined : basename(path).replace(/\.jsonl$/, '')
}

async function readJsonWithMtime(path: string): Promise<{ value: unknown; mtimeMs: number } | undefined> {
  try {
    // Our own private files: a symlink, FIFO or device there was planted, and reads as no signal.
    const { text, mtimeMs } = await readRegularFile(path, { noFollow: true, maxBytes: 4 * 1024 * 1024 })
    return { value: JSON.parse(text) as unknown, mtimeMs }
  } catch {
    return undefined
  }
}
