import { Suspense } from 'react'
import type { ReactNode } from 'react'
import { useMessageUI } from './message-ui-loader.js'
import type { MessageUI } from './message-ui-loader.js'

interface PartProps {
  /** What to render with the loaded message UI chunk. */
  render: (ui: MessageUI) => ReactNode
  /** Shown while the chunk loads, and for good if it failed to load. */
  fallback: ReactNode
}

function LoadedPart({ render, fallback }: PartProps): ReactNode {
  const ui = useMessageUI()
  return ui instanceof Error ? fallback : render(ui)
}

/** A part of the chat drawn by the lazily loaded message UI chunk, under its own `<Suspense>`. */
export function MessageUIPart(props: PartProps): ReactNode {
  return <Suspense fallback={props.fallback}><LoadedPart {...props} /></Suspense>
}
