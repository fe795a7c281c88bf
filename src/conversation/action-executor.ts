import type { ActionConfirmation, ConfirmationOutcome } from '../contract/action-confirmation.js'
import type { ToolCall } from '../contract/message.js'
import type { ToolDefinition } from '../contract/tool.js'
import type { ActionKit } from './action-kit.js'

/**
 * What runs a confirmed action. Three kinds, one interface: a chat controller (AgentsKit's
 * `proposeToolCall`/`approve`/`deny`, which settles the `requires_confirmation` tool call in
 * history), a list of tools run directly (a server, where no controller lives), or the app's own.
 */

export interface ActionExecutionContext {
  /** The record's key: the same on every attempt, so an `execute` that dedupes by it runs once. */
  readonly idempotencyKey: string
  readonly token: string
  readonly toolCallId: string
  readonly sessionId: string
  /** 0 on the first attempt; a reconcile after a crash counts up. */
  readonly attempt: number
}

export interface ActionExecutor {
  /**
   * Checks and registers a proposal (a `requires_confirmation` tool call); throwing refuses it.
   * Returning a `toolCallId` binds the record to that id instead (a controller that names its own
   * calls, as AgentsKit's does: approving under the id it was passed would find no call).
   */
  propose?: (proposal: { readonly toolCallId: string; readonly name: string; readonly input: Record<string, unknown> }) => Promise<{ readonly toolCallId?: string } | void>
  /**
   * Runs the approved action. Return `{ status: 'error', error }` for an action that ran and failed.
   * A throw says the upstream failed and may or may not have acted: the record stays `executing`
   * with its claim given up, the approve rejects with the error, and a retry executes again with
   * the same `idempotencyKey`.
   */
  execute: (record: ActionConfirmation, context: ActionExecutionContext) => Promise<ConfirmationOutcome | void>
  /** Withdraws the proposal (the tool call denied with `reason`). A throw leaves the record `rejecting`/`expiring`, its claim given up for a retry. */
  withdraw?: (record: ActionConfirmation, reason: string) => Promise<void>
}

/** The controller surface a confirmation drives: AgentsKit's `ChatController`/`ChatReturn` fit it. */
export interface ConfirmationChat {
  proposeToolCall: (proposal: Pick<ToolCall, 'id' | 'name' | 'args'>) => Promise<ToolCall>
  /** chatrail's controller passes `idempotencyKey` to the tool's `execute`; AgentsKit's ignores it. */
  approve: (toolCallId: string, options?: { idempotencyKey?: string }) => Promise<void>
  deny: (toolCallId: string, reason?: string) => Promise<void>
}

const mutableInput = (record: ActionConfirmation): Record<string, unknown> => structuredClone(record.action.input) as Record<string, unknown>

/** A controller as an executor: the tool call lives in the chat's history and the controller runs it. */
export function chatExecutor(chat: ConfirmationChat): ActionExecutor {
  return {
    async propose(proposal) {
      const call: ToolCall | undefined = await chat.proposeToolCall({ id: proposal.toolCallId, name: proposal.name, args: proposal.input })
      // a controller that returns nothing keeps the id it was given
      return call === undefined || call === null ? undefined : { toolCallId: call.id }
    },
    async execute(record, context) {
      await chat.approve(record.toolCallId, { idempotencyKey: context.idempotencyKey })
    },
    async withdraw(record, reason) {
      await chat.deny(record.toolCallId, reason)
    },
  }
}

const describe = (thrown: unknown): string => (thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown))

/** Tools run directly (`execute(input, { messages: [], call, idempotencyKey })`); an async-iterable result is drained. */
export function toolsExecutor(tools: readonly ToolDefinition[], kit: ActionKit): ActionExecutor {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const find = (name: string): ToolDefinition & { execute: NonNullable<ToolDefinition['execute']> } => {
    const tool = byName.get(name)
    if (!tool?.execute || tool.requiresConfirmation !== true) {
      throw kit.error({
        code: 'ACTION_UNKNOWN',
        message: tool ? `The tool "${name}" needs requiresConfirmation: true and an execute function to be confirmed.` : `No tool named "${name}" can be confirmed.`,
        hint: `Register a tool named "${name}" with requiresConfirmation: true and execute.`,
      })
    }
    return tool as ToolDefinition & { execute: NonNullable<ToolDefinition['execute']> }
  }
  return {
    async propose(proposal) {
      find(proposal.name)
    },
    async execute(record, context) {
      const tool = find(record.action.name)
      const args = mutableInput(record)
      const call: ToolCall = { id: record.toolCallId, name: record.action.name, args, status: 'running' }
      try {
        const returned = await tool.execute(args, { messages: [], call, idempotencyKey: context.idempotencyKey })
        if (typeof returned === 'object' && returned !== null && Symbol.asyncIterator in returned) {
          for await (const piece of returned as AsyncIterable<unknown>) void piece
        }
        return { status: 'complete' }
      } catch (thrown) {
        return { status: 'error', error: describe(thrown) }
      }
    },
  }
}
