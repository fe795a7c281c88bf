import { useState } from 'react'
import type { ReactNode } from 'react'
import { ChatSession } from '../../../renderers/react/index.js'
import { createScriptedAgent } from './scripted-agent.js'
import { supportTools } from './support-tools.js'
import { createSupportBot } from '../../support-bot/definition.js'

const STATE_LABELS = {
  greeting: 'Welcome',
  collecting: 'Order lookup',
  confirming: 'Confirm reship',
  escalated: 'With a person',
  resolved: 'Resolved',
}

/**
 * The support-bot workflow (examples/support-bot) in the browser. Its agentic fallback is a
 * scripted live agent (no network) that counts its calls, shown in the header: deterministic turns
 * and replays leave the count alone. Mention "ask" or "plan" to get an agent dialog card, and
 * "markdown", "long", "think" or "fail" for the other reply states, "refund" for tool calls (one
 * waiting for approval), reasoning and sources (scripted-agent.ts).
 */
export function App(): ReactNode {
  const [calls, setCalls] = useState(0)
  const [definition] = useState(() => createSupportBot(createScriptedAgent({ onCall: setCalls }), supportTools))
  return (
    <main data-app="">
      <header data-app-header="">
        <h1>Support</h1>
        <p>Agent calls: <output data-testid="agent-calls">{calls}</output></p>
      </header>
      <ChatSession
        definition={definition}
        title="Support chat"
        greeting="Hi! How can I help with your order?"
        placeholder="Try /start, #12345, “ask me”, “make a plan”, “markdown”"
        stateLabels={STATE_LABELS}
        eventLabels={{ confirm: 'Reship it', escalate: 'Talk to a person', resolve: 'Mark as solved' }}
      />
    </main>
  )
}
