import type { ChatDefinition } from '../../index.js'

/**
 * What the page needs to know about the served definition and cannot read from the
 * `data-chatrail` part: its id (the page's title) and its event routes. The part lists the events
 * the state declares, but only an `eventRoute`'s UI event does something when pressed; the others
 * would only reach the agent. Served as JSON at `/chatrail-serve.json`; route names only, never
 * responses, patterns or guards.
 */
export interface ServePageConfig {
  readonly id: string
  readonly revision: number
  readonly eventRoutes: ReadonlyArray<{ readonly uiEvent: string; readonly event?: string; readonly states?: readonly string[] }>
}

export const PAGE_CONFIG_PATH = '/chatrail-serve.json'

export function pageConfigOf(definition: ChatDefinition): ServePageConfig {
  const eventRoutes = definition.conversation.routes.flatMap((route) =>
    route.kind !== 'event'
      ? []
      : [{ uiEvent: route.uiEvent, ...(route.event === undefined ? {} : { event: route.event }), ...(route.states === undefined ? {} : { states: [...route.states] }) }],
  )
  return { id: definition.id, revision: definition.revision, eventRoutes }
}
