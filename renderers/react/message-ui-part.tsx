import { Suspense, useContext } from './react-api.js'
import type { ReactNode } from 'react'
import { ComponentHostContext } from './component-host.js'
import { ChatLabelsContext } from './labels.js'
import { messageUIKit } from './message-ui-kit.js'
import { useMessageUI } from './message-ui-loader.js'
import type { MessageUI } from './message-ui-loader.js'

interface PartProps {
  /** What to render with the loaded message UI chunk. */
  render: (ui: MessageUI) => ReactNode
  /** Shown while the chunk loads, and for good if it failed to load. */
  fallback: ReactNode
}

/** The chunk's part, given the app's labels, the component host and the entry's kit through the chunk's own contexts (message-ui-context.ts says why). */
function LoadedPart({ render, fallback }: PartProps): ReactNode {
  const ui = useMessageUI()
  const labels = useContext(ChatLabelsContext)
  const host = useContext(ComponentHostContext)
  if (ui instanceof Error) return fallback
  return (
    <ui.MessageUIKitContext value={messageUIKit}>
      <ui.MessageUILabels value={labels}><ui.MessageUIHost value={host}>{render(ui)}</ui.MessageUIHost></ui.MessageUILabels>
    </ui.MessageUIKitContext>
  )
}

/** A part of the chat drawn by the lazily loaded message UI chunk, under its own `<Suspense>`. */
export function MessageUIPart(props: PartProps): ReactNode {
  return <Suspense fallback={props.fallback}><LoadedPart {...props} /></Suspense>
}
