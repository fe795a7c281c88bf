import type { Dialog } from '../contract/dialog.js'
import type { ChatrailError } from '../contract/errors.js'

/**
 * Why `session.answerDialog` refused: the error it rejects with when the live agent has no pending
 * dialog, or another one. Loaded only then (issue 32): a dialog answered as shown is delivered
 * without it, and a session that never drives a live agent never loads it. The session hands in
 * its error class (an import of it here would move it out of the session's chunk into one shared
 * with this one, see turn-kit.ts); this module takes only types.
 */
export function noPendingDialog(pending: Dialog | undefined, toolId: string, ErrorClass: typeof ChatrailError): ChatrailError {
  return new ErrorClass({
    code: 'NO_PENDING_DIALOG',
    message: pending ? `The pending dialog is "${pending.toolId}", not "${toolId}".` : 'There is no pending dialog to answer.',
    hint: 'Answer the dialog shown in getSnapshot().agent.pendingDialog, by its toolId.',
  })
}
