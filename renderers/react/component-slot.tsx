import { Suspense, useContext } from 'react'
import type { ReactNode } from 'react'
import type { ComponentPart } from '../../src/contract/component-part.js'
import { MessageUIHost } from './message-ui-context.js'
import { useComponentUI } from './component-ui-loader.js'

interface Props {
  messageId: string
  part: ComponentPart
}

/** What every renderer shows for a component it does not draw: the part's fallback summary. */
export function ComponentFallback({ part }: { part: ComponentPart }): ReactNode {
  return <p data-chatrail-component-fallback="" data-chatrail-component-key={part.componentKey}>{part.fallback.summary}</p>
}

function Loaded({ messageId, part }: Props): ReactNode {
  const ui = useComponentUI()
  const host = useContext(MessageUIHost)
  if (ui instanceof Error || host === null) return <ComponentFallback part={part} />
  return <ui.ComponentPartView host={host} messageId={messageId} part={part} />
}

/**
 * A component part in a message, drawn by the component UI chunk; its fallback summary while the
 * chunk loads, if it failed to load, or outside a `<MessageList>` (no chat to resolve it against).
 */
export function ComponentSlot(props: Props): ReactNode {
  return <Suspense fallback={<ComponentFallback part={props.part} />}><Loaded {...props} /></Suspense>
}
