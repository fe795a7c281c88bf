import type { Message } from '../../src/contract/message.js'
import { ChatrailError } from '../../src/contract/errors.js'
import { terminalText } from '../../src/contract/terminal-text.js'
import type { TurnTrace } from '../../src/conversation/trace.js'

/**
 * The line a failed reply ends with, apart from its partial text: what went wrong, with the
 * error's code and cause when known. A live failure has the controller's error (a
 * `ChatrailError` with `code` and `cause`); a failed turn restored from a server carries only
 * its code (`metadata.chatrail.error.code`). Pure; undefined for a reply that did not fail.
 */
export function failureLine(message: Message, error?: unknown): string | undefined {
  if (message.status !== 'error') return undefined
  const restoredCode = storedCode(message)
  if (!(error instanceof Error)) return restoredCode === undefined ? 'the turn failed' : `the turn failed (${restoredCode})`
  const code = ChatrailError.isInstance(error) ? error.code : restoredCode
  const cause = error.cause instanceof Error && error.cause.message !== '' && error.cause.message !== error.message ? error.cause.message : undefined
  const details = [code, cause === undefined ? undefined : `cause: ${cause}`].filter((part) => part !== undefined)
  const text = `${error.message === '' ? 'the turn failed' : error.message}${details.length === 0 ? '' : ` (${details.join('; ')})`}`
  // error text can come from a model or a remote server: no terminal commands in it
  return terminalText(text, { singleLine: true })
}

function storedCode(message: Message): string | undefined {
  const chatrail = message.metadata?.['chatrail']
  if (typeof chatrail !== 'object' || chatrail === null) return undefined
  const code = (chatrail as { error?: { code?: unknown } }).error?.code
  return typeof code === 'string' && code !== '' ? code : undefined
}

/**
 * The line under an agent's partial answer when the agent failed and the definition's fallback
 * answered instead (a `fallback` trace carrying the error's class): what failed, and that the
 * fallback's answer follows. Pure.
 */
export function fallbackFailureLine(trace: TurnTrace | undefined): string {
  const errorClass = trace?.kind === 'fallback' ? trace.errorClass : undefined
  return terminalText(`the agent failed${errorClass === undefined ? '' : ` (${errorClass})`}; the fallback answered below`, { singleLine: true })
}
