import type { ServePageConfig } from '../../src/cli/serve/page-config.js'
import { commandRoute, defineChat, eventRoute } from '../../src/conversation/index.js'
import type { ChatDefinition, Route } from '../../src/conversation/index.js'
import { serverSideAgent } from '../../src/view/server-side-agent.js'

/**
 * The served definition as chatrail/react's remote mode needs it, rebuilt in the browser from the
 * route summary the server sends (`/chatrail-serve.json`, src/cli/serve/page-config.ts): the same
 * id, revision, states, transitions and command and event routes, with no callbacks. Every turn
 * runs on the server, so the routes answer nothing here (an empty response the page never runs)
 * and the agent is `serverSideAgent`. What the page draws from it: the welcome screen's
 * suggestion chips and their labels, the state's event buttons, Start over and the final states.
 */
export function browserDefinitionOf(config: ServePageConfig): ChatDefinition {
  const routes: Route[] = config.routes.map((summary) => {
    const common = {
      id: summary.id,
      ...(summary.event === undefined ? {} : { event: summary.event }),
      ...(summary.states === undefined ? {} : { states: [...summary.states] }),
      ...(summary.restart === true ? { restart: true as const } : {}),
      ...(summary.description === undefined ? {} : { description: summary.description }),
      response: '',
    }
    return summary.kind === 'command' ? commandRoute({ ...common, command: summary.command }) : eventRoute({ ...common, uiEvent: summary.uiEvent })
  })
  const states = Object.fromEntries(Object.entries(config.states).map(([name, state]) => [name, {
    ...(state.on === undefined ? {} : { on: { ...state.on } }),
    ...(state.final === undefined ? {} : { final: state.final }),
    ...(state.description === undefined ? {} : { description: state.description }),
    ...(state.actions === undefined ? {} : { actions: [...state.actions] }),
    ...(state.ignoreGlobal === undefined ? {} : { ignoreGlobal: state.ignoreGlobal === true ? (true as const) : [...state.ignoreGlobal] }),
  }]))
  return defineChat({
    id: config.id,
    revision: config.revision,
    chat: { adapter: serverSideAgent },
    conversation: { initial: config.initial, states, ...(config.on === undefined ? {} : { on: { ...config.on } }), routes, ...(config.eventLabels === undefined ? {} : { eventLabels: { ...config.eventLabels } }) },
    ...(config.theme === undefined ? {} : { theme: config.theme }),
  })
}
