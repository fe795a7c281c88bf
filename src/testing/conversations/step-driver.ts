import type { Message } from '../../contract/message.js'
import type { ChatrailController } from '../../controller/index.js'
import { sendUiEvent } from '../../index.js'
import type { ConversationStep } from './step.js'
import type { AdapterCall } from '../recording-adapter.js'

/**
 * Performs one step on a controller. Knows which user message each earlier turn sent, so
 * `edit` and `regenerate` can name turns by number. A step that cannot be performed (its turn's
 * message is gone) resolves with a problem instead of throwing: running things report as data.
 */
export class StepDriver {
  /** Turn number → id of the user message that turn sent. */
  private readonly userMessages = new Map<number, string>()

  constructor(private readonly controller: ChatrailController) {}

  /** Starts the step; `done` settles when the controller finished the turn. */
  start(step: ConversationStep): { done: Promise<void>; problem?: string } {
    if ('user' in step) return { done: this.controller.send(step.user, step.metadata === undefined ? undefined : { metadata: step.metadata }) }
    if ('event' in step) return { done: sendUiEvent(this.controller, step.event, step.label) }
    if ('retry' in step) return { done: this.controller.retry() }
    if ('regenerate' in step) {
      if (step.regenerate === true) return { done: this.controller.regenerate() }
      const reply = this.replyTo(step.regenerate.turn)
      if (typeof reply !== 'string') return { done: Promise.resolve(), problem: reply.problem }
      return { done: this.controller.regenerate(reply) }
    }
    if ('edit' in step) {
      const id = this.userMessageOf(step.edit.turn)
      if (typeof id !== 'string') return { done: Promise.resolve(), problem: id.problem }
      return { done: this.controller.edit(id, step.edit.text) }
    }
    return { done: Promise.resolve() }
  }

  /** After a `user`/`event` step: remembers the user message it sent. */
  remember(turn: number): void {
    const messages = this.controller.getState().messages
    const user = lastOf(messages, (message) => message.role === 'user')
    if (user !== undefined) this.userMessages.set(turn, user.id)
  }

  private userMessageOf(turn: number): string | { problem: string } {
    const id = this.userMessages.get(turn)
    if (id === undefined) return { problem: `turn ${turn} sent no user message` }
    if (!this.controller.getState().messages.some((message) => message.id === id)) {
      return { problem: `turn ${turn}'s user message is no longer in the history (an earlier edit or regenerate removed it)` }
    }
    return id
  }

  /** The assistant reply that follows turn `turn`'s user message now. */
  private replyTo(turn: number): string | { problem: string } {
    const id = this.userMessageOf(turn)
    if (typeof id !== 'string') return id
    const messages = this.controller.getState().messages
    const at = messages.findIndex((message) => message.id === id)
    const reply = messages.slice(at + 1).find((message) => message.role === 'assistant')
    return reply === undefined ? { problem: `turn ${turn} has no assistant reply to regenerate` } : reply.id
  }
}

function lastOf(messages: readonly Message[], test: (message: Message) => boolean): Message | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]
    if (message !== undefined && test(message)) return message
  }
  return undefined
}

/** The reply a step left: the last message when it is the assistant's. */
export function lastReply(messages: readonly Message[]): Message | undefined {
  const last = messages[messages.length - 1]
  return last?.role === 'assistant' ? last : undefined
}

/**
 * Lets `done` run until its first reply text arrives (or, for a stream that stays silent, until
 * the adapter was pulled and the event loop turned twice), then calls `stop()` and waits for the
 * turn to settle. Stopping inside the state listener is what makes a synchronous stream stoppable.
 */
export async function stopAfterFirstChunk(
  controller: ChatrailController,
  done: Promise<void>,
  calls: () => readonly AdapterCall[],
  earlierMessages: ReadonlySet<string>,
): Promise<void> {
  let settled = false
  const settledPromise = done.then(
    () => {
      settled = true
    },
    () => {
      settled = true
    },
  )
  let stopped = false
  const stop = (): void => {
    if (stopped) return
    stopped = true
    controller.stop()
  }
  const hasText = (): boolean => {
    const reply = lastReply(controller.getState().messages)
    return reply !== undefined && !earlierMessages.has(reply.id) && reply.content.length > 0
  }
  const unsubscribe = controller.subscribe(() => {
    if (hasText()) stop()
  })
  try {
    if (hasText()) stop()
    let silentTurns = 0
    while (!stopped && !settled) {
      if (calls().some((call) => call.streamed)) silentTurns += 1
      if (silentTurns > 2) stop()
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    unsubscribe()
  }
  await settledPromise
}
