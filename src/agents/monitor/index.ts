// The `chatrail/monitor` entry: every local Claude Code and Codex session, normalized. Lists every export by name.
export { createMonitor } from './create-monitor.js'
export type { Monitor, MonitorState } from './create-monitor.js'
export {
  DEFAULT_ENDED_WINDOW_MS,
  DEFAULT_LIVE_WINDOW_MS,
  DEFAULT_MAX_OPEN_FILES,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_SETTLE_MS,
  MonitorOptionsError,
} from './monitor-options.js'
export type { MonitorOptions } from './monitor-options.js'
export { attentionOf, isTerminal, isTerminalStatus } from './monitor-entry.js'
export type { Attention, EndedBy, MonitorEntry, SessionActivity } from './monitor-entry.js'
export { diffEntries } from './monitor-events.js'
export type { MonitorEvent } from './monitor-events.js'
export type { MonitorStats } from './monitor-stats.js'
export { BASELINE_SLACK_MS, gateNotification, notificationReason } from './notification-gate.js'
export type { GateInput, GateResult, NotificationReason, NotificationTrack } from './notification-gate.js'
export { deriveSessionState, formatWindow } from './session-state.js'
export type { ProcessEvidence, ReaderVerdict, SessionState, SessionStateInput } from './session-state.js'
export { formatAge, sessionRows, sortByAttention, splitRecent, stateLabel } from './session-rows.js'
export type { SessionRow } from './session-rows.js'
export { SESSION_COLUMNS, sessionTableLines } from './session-table-text.js'
export type { AgentKind, NormalizedStatus, RunState } from '../../contract/agent-chat.js'
export type { Dialog } from '../../contract/dialog.js'
