import type { ReactNode } from 'react'
import type { ToolCall } from '../../src/contract/message.js'
import { ToolCallCard } from './tool-call-card.js'
import type { ToolDecisions } from './tool-call-card.js'

/**
 * A reply's tool calls as cards (`div[data-chatrail-tool-calls]`); `decisions` (the chat's
 * `approve` / `deny`) answer the calls that need confirmation.
 */
export function ToolCallList({ calls, decisions }: { calls: readonly ToolCall[]; decisions: ToolDecisions | undefined }): ReactNode {
  return (
    <div data-chatrail-tool-calls="">
      {calls.map((call) => <ToolCallCard key={call.id} call={call} decisions={decisions} />)}
    </div>
  )
}
