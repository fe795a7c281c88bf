import type { ChatState } from '../contract/chat.js'
import type { BranchPosition } from '../controller/index.js'
import type { ChatDefinition, JsonObject, SessionSnapshot, TurnTrace } from '../conversation/index.js'
import { agentFailedIn } from './agent-failure.js'
import { eventBarOf, labelledSuggestionsOf } from './event-bar.js'
import type { EventBar, LabelledSuggestion } from './event-bar.js'
import { failureOf } from './failure.js'
import type { Failure } from './failure.js'
import { latestVersions } from './latest-versions.js'
import type { LatestVersions } from './latest-versions.js'
import type { MessageLabels } from './message-labels.js'
import { canReplayLastTurn } from './message-offers.js'

/** What a chat offers and reports beside its messages, as the view's snapshot holds it. */
export interface Presentation {
  readonly regenerable: string | undefined
  readonly eventBar: EventBar
  readonly suggestions: readonly LabelledSuggestion[]
  readonly latestVersions: LatestVersions | undefined
  /** Before the user dismissed it (the store hides a dismissed one). */
  readonly failure: Failure | undefined
}

export interface PresentationInput<Ctx extends JsonObject = JsonObject> {
  readonly definition: Pick<ChatDefinition<Ctx>, 'conversation'>
  /** The controller's state, the conversation's snapshot and the turn traces (a binding's state). */
  readonly state: { readonly chat: ChatState; readonly snapshot: SessionSnapshot<Ctx>; readonly traces: readonly TurnTrace[] }
  /** A reply streams or a dialog waits. */
  readonly busy: boolean
  /** The messages with other versions, by id. */
  readonly versions: ReadonlyMap<string, BranchPosition>
  readonly eventLabels: Readonly<Record<string, string>> | undefined
  readonly labels: MessageLabels
}

/**
 * Pure: the view's presentation of a chat state: the reply a Regenerate button is offered on (the last one, idle, no failure reported: then the
 * failure's Retry is the one way to ask again), the bar under the messages and the chips, the
 * newest message with versions, and the failure to report in plain words (none while streaming).
 */
export function presentationOf<Ctx extends JsonObject>(input: PresentationInput<Ctx>): Presentation {
  const { definition, state: { chat, snapshot: conversation, traces }, busy, versions, eventLabels, labels } = input
  const { messages, status } = chat
  const streaming = status === 'streaming'
  const failure = streaming ? undefined : failureOf(chat.error, traces, agentFailedIn, labels)
  return {
    regenerable: failure === undefined && canReplayLastTurn(messages, streaming) ? messages.at(-1)?.id : undefined,
    eventBar: eventBarOf({ definition, snapshot: conversation, traces, disabled: busy, eventLabels, startOver: labels.startOver }),
    suggestions: labelledSuggestionsOf({ definition, snapshot: conversation, eventLabels }),
    latestVersions: versions.size === 0 ? undefined : latestVersions(messages, (id) => versions.get(id) ?? { index: 0, count: 1 }),
    failure,
  }
}
