import type { ChatDefinition } from '../../index.js'
import { resolveChatTheme } from '../../conversation/resolve-theme.js'
import type { ChatTheme } from '../../conversation/theme-tokens.js'

/**
 * What the page needs to know about the served definition and cannot read from the
 * `data-chatrail` part, as plain JSON: its id and revision (title, binding identity), its states
 * and transitions (the initial snapshot, final states), and its command and event routes (the
 * welcome screen's suggestion chips, the state's event buttons, Start over). The page builds a
 * browser-safe definition from it (renderers/serve-page/browser-definition.ts) for chatrail/react's
 * remote mode; the definition module itself never goes to the browser: it may hold secrets and
 * server-only code. So this is names and descriptions only: never responses, guards, patterns,
 * matchers, texts, forms or the context. The theme, when the definition has one, is tokens only.
 */
export interface ServePageConfig {
  readonly id: string
  readonly revision: number
  readonly initial: string
  readonly states: Readonly<Record<string, StateSummary>>
  /** Conversation-level transitions (every non-final state takes them unless it opts out). */
  readonly on?: Readonly<Record<string, string>>
  readonly routes: readonly RouteSummary[]
  /** What event buttons and chips say (`conversation.eventLabels`). */
  readonly eventLabels?: Readonly<Record<string, string>>
  /** The definition's theme, resolved (validated tokens only: the page writes them into a stylesheet). */
  readonly theme?: ChatTheme
  /**
   * Set when the server serves the confirmation endpoints (`createChatHandler({ confirmations })`):
   * the page then binds approval requests to their records and lists the records no message shows.
   * `chatrail serve` sets it when the definition has tools that require confirmation
   * (serve-confirmations.ts).
   */
  readonly confirmations?: true
}

export interface StateSummary {
  /** event → target state (a guarded transition is listed by its target: the server decides). */
  readonly on?: Readonly<Record<string, string>>
  readonly final?: boolean
  readonly description?: string
  readonly actions?: readonly string[]
  readonly ignoreGlobal?: true | readonly string[]
}

interface RouteSummaryCommon {
  readonly id: string
  readonly event?: string
  readonly states?: readonly string[]
  readonly restart?: true
  readonly description?: string
}

/** A command route (a suggestion chip) or an event route (an event button, Start over). Text, pattern and custom routes are left out: the page shows nothing for them, and their matchers are the server's. */
export type RouteSummary =
  | (RouteSummaryCommon & { readonly kind: 'command'; readonly command: string })
  | (RouteSummaryCommon & { readonly kind: 'event'; readonly uiEvent: string })

export const PAGE_CONFIG_PATH = '/chatrail-serve.json'

type Transitions = Readonly<Record<string, string | { readonly target: string }>> | undefined

function targets(on: Transitions): Record<string, string> | undefined {
  if (on === undefined) return undefined
  return Object.fromEntries(Object.entries(on).map(([event, transition]) => [event, typeof transition === 'string' ? transition : transition.target]))
}

export function pageConfigOf(definition: ChatDefinition): ServePageConfig {
  const { conversation } = definition
  const states: Record<string, StateSummary> = {}
  for (const [name, state] of Object.entries(conversation.states)) {
    const on = targets(state.on)
    states[name] = {
      ...(on === undefined ? {} : { on }),
      ...(state.final === undefined ? {} : { final: state.final }),
      ...(state.description === undefined ? {} : { description: state.description }),
      ...(state.actions === undefined ? {} : { actions: [...state.actions] }),
      ...(state.ignoreGlobal === undefined ? {} : { ignoreGlobal: state.ignoreGlobal === true ? true : [...state.ignoreGlobal] }),
    }
  }
  const routes = conversation.routes.flatMap((route): RouteSummary[] => {
    const common: RouteSummaryCommon = {
      id: route.id,
      ...(route.event === undefined ? {} : { event: route.event }),
      ...(route.states === undefined ? {} : { states: [...route.states] }),
      ...(route.restart === true ? { restart: true } : {}),
      ...(route.description === undefined ? {} : { description: route.description }),
    }
    if (route.kind === 'command') return [{ ...common, kind: 'command', command: route.command }]
    if (route.kind === 'event') return [{ ...common, kind: 'event', uiEvent: route.uiEvent }]
    return []
  })
  const on = targets(conversation.on)
  // resolving checks every token: a bad theme stops `chatrail serve` before it listens (ChatrailConfigError at theme.…)
  const theme = definition.theme === undefined ? undefined : resolveChatTheme(definition.theme)
  const eventLabels = conversation.eventLabels as Readonly<Record<string, string>> | undefined
  return { id: definition.id, revision: definition.revision, initial: conversation.initial, states, ...(on === undefined ? {} : { on }), routes, ...(eventLabels === undefined ? {} : { eventLabels: { ...eventLabels } }), ...(theme === undefined ? {} : { theme }) }
}
