import type { Message } from '../contract/message.js'
import { waitingApprovalsOf } from './approval-source.js'
import type { ApprovalRecord, ApprovalSource } from './approval-source.js'
import type { wiredListeners } from './listeners.js'

/** The store of waiting confirmation records behind `createWaitingApprovals` (waiting-approvals.ts says what it does). */

export interface WaitingApprovalsState {
  /** The records the last read found, updated by the source's changes. */
  readonly records: readonly ApprovalRecord[]
  /** The records decided here, by token, as the source answered. */
  readonly decided: ReadonlyMap<string, ApprovalRecord>
}

export interface WaitingApprovals {
  /** Immutable; a new object after each change. */
  getState: () => WaitingApprovalsState
  /** The first subscriber starts following the source's changes (when it reports them). */
  subscribe: (listener: () => void) => () => void
  /** Reads the records again (needs the source's `list`; without it, nothing to read). */
  refresh: () => Promise<void>
  approve: (token: string) => Promise<ApprovalRecord>
  reject: (token: string, reason?: string) => Promise<ApprovalRecord>
  /** Pure over the state: the records to show beside `messages` (`waitingApprovalsOf`: none a message shows). */
  shownWith: (messages: readonly Message[]) => ApprovalRecord[]
}

/**
 * `createWaitingApprovals` (waiting-approvals.ts) with the listeners' helper handed in: the view's
 * presentation rules, loaded lazily by chatrail/react's view, make the store this way, so that their
 * chunk does not import listeners.ts, which the app's entry imports too (a module both import would
 * be split off by a bundler into a chunk shared with the entry, one more gzip stream for its first
 * screen; the kit pattern of src/conversation/action-kit.ts).
 */
export function waitingApprovalsWith(source: ApprovalSource, listen: typeof wiredListeners): WaitingApprovals {
  let state: WaitingApprovalsState = { records: [], decided: new Map() }
  const set = (next: WaitingApprovalsState): void => {
    state = next
    listeners.notify()
  }
  const listeners = listen(() => source.subscribe?.((record) => {
    if (state.records.some((known) => known.token === record.token)) set({ ...state, records: state.records.map((known) => (known.token === record.token ? record : known)) })
  }) ?? (() => undefined))
  const keep = (record: ApprovalRecord): ApprovalRecord => {
    const records = state.records.some((known) => known.token === record.token) ? state.records : [...state.records, record]
    set({ records, decided: new Map(state.decided).set(record.token, record) })
    return record
  }
  /**
   * A decision made here: the card keeps the record it was decided from until the source answers
   * (the source's own changes on the way, approving then executing, do not take it from view), then
   * the answer; a failed decision gives the record back to the source's changes.
   */
  const decide = async (token: string, run: () => Promise<ApprovalRecord>): Promise<ApprovalRecord> => {
    const from = state.decided.get(token) ?? state.records.find((known) => known.token === token)
    if (from !== undefined) set({ ...state, decided: new Map(state.decided).set(token, from) })
    try {
      return keep(await run())
    } catch (error) {
      const decided = new Map(state.decided)
      decided.delete(token)
      set({ ...state, decided })
      throw error
    }
  }
  return {
    getState: () => state,
    subscribe: listeners.subscribe,
    refresh: async () => {
      if (source.list === undefined) return
      set({ ...state, records: await source.list() })
    },
    approve: (token) => decide(token, () => source.approve(token)),
    reject: (token, reason) => decide(token, () => source.reject(token, reason)),
    shownWith: (messages) => waitingApprovalsOf(state.records, state.decided, messages),
  }
}
