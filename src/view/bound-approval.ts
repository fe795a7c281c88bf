import { isComponentPart } from '../contract/component-chunk.js'
import type { Message } from '../contract/message.js'
import type { ApprovalRecord, ApprovalSource } from './approval-source.js'

/**
 * An `approval-request` component bound to its confirmation record, for every binding's card:
 * the record is read from the source by the component's token and followed through the source's
 * changes; what a card shows is the record, never a click.
 */
export type BoundApproval =
  | { readonly state: 'loading' }
  /** The source knows no record for the token (or the server serves no confirmations). */
  | { readonly state: 'missing' }
  | { readonly state: 'failed'; readonly message: string }
  | { readonly state: 'ready'; readonly record: ApprovalRecord }

/** Reads the record for `token` and calls `onChange` with it and with every change the source reports; returns the stop. */
export function watchApproval(source: ApprovalSource, token: string, onChange: (bound: BoundApproval) => void): () => void {
  let live = true
  source.read(token).then(
    (record) => { if (live) onChange(record === undefined ? { state: 'missing' } : { state: 'ready', record }) },
    (error: unknown) => { if (live) onChange({ state: 'failed', message: error instanceof Error ? error.message : String(error) }) },
  )
  const stop = source.subscribe?.((record) => { if (live && record.token === token) onChange({ state: 'ready', record }) })
  return () => {
    live = false
    stop?.()
  }
}

/** The approval request of the last answer, while it is the last message (a terminal decides one at a time). */
export interface PendingApproval {
  /** `<messageId>:<instanceId>`. */
  readonly key: string
  readonly token: string
  readonly title: string
}

/** Pure: the first `approval-request` with a token in the last answer, when that answer is complete and the last message. */
export function pendingApprovalOf(messages: readonly Message[]): PendingApproval | undefined {
  const last = messages.at(-1)
  if (last === undefined || last.role !== 'assistant' || last.status !== 'complete') return undefined
  for (const part of last.parts ?? []) {
    if (!isComponentPart(part) || part.componentKey !== 'approval-request') continue
    const props = part.props as { token?: unknown; title?: unknown } | null
    if (typeof props?.token === 'string') return { key: `${last.id}:${part.instanceId}`, token: props.token, title: typeof props.title === 'string' ? props.title : 'Approval' }
  }
  return undefined
}
