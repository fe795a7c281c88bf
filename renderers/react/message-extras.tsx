import { Suspense, use, useContext } from 'react'
import type { ReactNode } from 'react'
import type { ToolCall } from '../../src/contract/message.js'
import { MessageUIHost, MessageUILabels, useMessageUIKit } from './message-ui-context.js'
import type { MessageUIKit } from './message-ui-context.js'
import type { LazyChunk } from './lazy-chunk.js'
import type * as MessageExtrasModule from './message-extras-ui.js'

export type MessageExtrasUI = typeof MessageExtrasModule

let chunk: LazyChunk<MessageExtrasUI> | undefined

/** The one load of the extras chunk, with the entry's `lazyChunk` handed over in the kit (message-ui-context.ts). */
function chunkOf(kit: Pick<MessageUIKit, 'lazyChunk'>): LazyChunk<MessageExtrasUI> {
  chunk ??= kit.lazyChunk(() => import('./message-extras-ui.js'))
  return chunk
}

/** Starts downloading the message extras chunk now (resolves once it can render). */
export function preloadMessageExtras(kit: Pick<MessageUIKit, 'lazyChunk'>): Promise<void> {
  return chunkOf(kit).preload()
}

/** What shows for tool calls until the chunk is in, and for good if it failed to load: one line per call. */
export function ToolCallChips({ calls }: { calls: readonly ToolCall[] }): ReactNode {
  if (calls.length === 0) return null
  return (
    <ul data-chatrail-tool-chips="">
      {calls.map((call) => <li key={call.id} data-chatrail-tool-chip={call.status}>{call.name} · {call.status}</li>)}
    </ul>
  )
}

interface ExtraProps {
  render: (ui: MessageExtrasUI) => ReactNode
  /** Shown while the chunk loads, and for good if it failed to load. */
  fallback: ReactNode
}

function Loaded({ render, fallback }: ExtraProps): ReactNode {
  // No follow-scroll report (unlike a dialog card): importing the entry's follow-scroll.ts from here
  // would split it into a chunk shared with the entry, +0.12 kB gzip on the entry for one effect.
  const ui = use(chunkOf(useMessageUIKit()).load())
  const labels = useContext(MessageUILabels)
  return ui instanceof Error ? fallback : <ui.ExtrasLabels value={labels}>{render(ui)}</ui.ExtrasLabels>
}

/** A part of a message drawn by the message extras chunk (message-extras-ui.ts), under its own `<Suspense>`. */
export function MessageExtra(props: ExtraProps): ReactNode {
  return <Suspense fallback={props.fallback}><Loaded {...props} /></Suspense>
}

/**
 * A reply's tool calls: cards from the chunk, Approve / Deny wired to the surrounding
 * `<MessageList>`'s chat (read here, in the message UI, so the chunk shares no module with the entry).
 */
export function ToolCallsExtra({ calls }: { calls: readonly ToolCall[] }): ReactNode {
  const chat = useContext(MessageUIHost)?.chat
  return <MessageExtra fallback={<ToolCallChips calls={calls} />} render={(ui) => <ui.ToolCallList calls={calls} decisions={chat} />} />
}
