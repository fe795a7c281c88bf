import type { ChatDefinition } from '../../../src/index.js'
import { serverSideAgent } from '../../../src/view/index.js'
import type { RemoteChatOptions } from '../../../src/view/index.js'
import { createScriptedAgent } from '../../../examples/react-support/src/scripted-agent.js'
import { scenarioDefinition } from './definition.js'
import { withExtrasReply } from './extras-agent.js'

export { EVENT_LABELS, STATE_LABELS } from './definition.js'

/** What a binding's scenario page mounts, read from its URL: the same for React, Vue and Svelte. */
export interface ScenarioPage {
  /** `?mode=remote`: every turn runs on the chatrail server at /api/chat; else the session runs in the page. */
  mode: 'local' | 'remote'
  definition: ChatDefinition
  /** The server and the conversation (`?c=`, default `scenario-1`), for remote mode. */
  remote: RemoteChatOptions
  /** The chat's name (its region and hidden heading). */
  title: string
}

/**
 * Reads the page's URL. In local mode the agent is the scripted live agent (no network); each of
 * its calls updates the page's `<output data-testid="agent-calls">` (outside the binding's markup),
 * so the suite sees that a deterministic turn or a replay did not reach it; a message about "logs"
 * gets the reply with reasoning, a long tool output and sources (extras-agent.ts).
 */
export function scenarioPage(): ScenarioPage {
  const query = new URLSearchParams(location.search)
  const mode = query.get('mode') === 'remote' ? 'remote' : 'local'
  const counter = document.querySelector('[data-testid="agent-calls"]')
  const agent = mode === 'remote' ? serverSideAgent : withExtrasReply(createScriptedAgent({ onCall: (calls) => { if (counter !== null) counter.textContent = String(calls) } }))
  return { mode, definition: scenarioDefinition(agent), remote: { api: '/api/chat', conversationId: query.get('c') ?? 'scenario-1' }, title: 'Support chat' }
}
