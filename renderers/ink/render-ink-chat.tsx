import { render } from 'ink'
import type { Instance, RenderOptions } from 'ink'
import type { ChatDefinition, JsonObject } from '../../src/index.js'
import { InkChat } from './ink-chat.js'
import type { InkChatSessionOptions } from './ink-chat.js'
import type { ApprovalSource } from '../../src/view/approval-source.js'

export interface RenderInkChatOptions<Ctx extends JsonObject = JsonObject> {
  /** Passed to `useChatSession`. */
  session?: InkChatSessionOptions<Ctx>
  /** What answers unmatched input, for the status line (`offline: no agent connected`). */
  backend?: string
  /** Text printed above the conversation (a banner), kept when a resize prints the log again. */
  header?: string
  /** Labels of the event keys, by UI event or machine event (default: the UI event humanized). */
  eventLabels?: Readonly<Record<string, string>>
  /** Where approval requests are decided (`coordinatorApprovals` / `serverApprovals`); see `<InkChat approvals>`. */
  approvals?: ApprovalSource
  /** Ink's render options (stdout, stdin, exitOnCtrlC, …). */
  ink?: RenderOptions
}

/**
 * Renders `<InkChat>` into the terminal and returns Ink's instance (`waitUntilExit`, `unmount`).
 * A plain function, so callers without JSX (the `chatrail` CLI) can mount a chat.
 */
export function renderInkChat<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, options: RenderInkChatOptions<Ctx> = {}): Instance {
  return render(
    <InkChat
      definition={definition}
      {...(options.session === undefined ? {} : { options: options.session })}
      {...(options.backend === undefined ? {} : { backend: options.backend })}
      {...(options.header === undefined ? {} : { header: options.header })}
      {...(options.eventLabels === undefined ? {} : { eventLabels: options.eventLabels })}
      {...(options.approvals === undefined ? {} : { approvals: options.approvals })}
    />,
    options.ink,
  )
}
