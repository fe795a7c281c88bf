import type { AdapterFactory } from '../../contract/adapter.js'
import { createSupportBot, supportBot } from '../../../examples/support-bot/definition.js'

/**
 * The demo's workflow: `examples/support-bot`, with the chosen agent as its agentic fallback.
 * `demoRoutes` are what the offline adapter lists (every support-bot route has a description).
 */

export const demoRoutes = supportBot.conversation.routes

/** What the event keys say (the buttons' labels in examples/react-support). */
export const demoEventLabels: Readonly<Record<string, string>> = { confirm: 'Reship it', escalate: 'Talk to a person', resolve: 'Mark as solved' }

export function demoDefinition(adapter: AdapterFactory) {
  return createSupportBot(adapter)
}
