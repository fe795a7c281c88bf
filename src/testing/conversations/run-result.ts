import type { Message } from '../../contract/message.js'
import type { StreamStatus } from '../../contract/stream.js'
import type { ChatrailController } from '../../controller/index.js'
import type { ChatNames, ChatSession, JsonObject, SessionSnapshot, TurnTrace } from '../../index.js'
import type { ConversationStep } from './step.js'
import type { AdapterCall } from '../recording-adapter.js'
import type { ExplainedTurn, ExplainInput, RouteExplanation } from '../../conversation/explain.js'

/**
 * Why no route took a turn's message: what the session decided instead (`outcome`: a form slot, a
 * stale UI event, the agent, …) and every route's reason, in the state the turn started in.
 */
export interface TurnExplanation {
  state: string
  input: ExplainInput
  outcome: ExplainedTurn
  routes: RouteExplanation[]
}

/** What one step of `runConversation` produced. `N`: the definition's names. */
export interface TurnResult<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> {
  /** 1-based position in the step list. */
  number: number
  step: ConversationStep<N['uiEvent']>
  /** `user "/start"`, `regenerate`, … (see `describeStep`). */
  label: string
  /** The assistant text this step produced; `''` when it produced none. */
  reply: string
  /** Id of the assistant message holding `reply`. */
  replyMessageId: string | undefined
  /** The last trace the step produced (a step normally produces exactly one). */
  trace: TurnTrace | undefined
  traces: TurnTrace[]
  /** The session snapshot after the step. */
  snapshot: SessionSnapshot<Ctx, N>
  /** Calls this step made to the agentic adapter (model calls). */
  adapterCalls: AdapterCall[]
  /**
   * For a `user` or `event` step that no route answered: what answered instead and why each route
   * did not (`explainTurn` in the state and context before the step). Matcher and conversation-file
   * failures print it.
   */
  explanation?: TurnExplanation
  /** The controller's status and error after the step. */
  status: StreamStatus
  error: string | undefined
}

/** One deterministic turn whose regeneration did not reproduce it. */
export interface ReplayMismatch {
  /** The turn (1-based) that was replayed. */
  turn: number
  label: string
  /** `regenerate` for the in-place replay from the decision cache, `rerun` for the fresh run under a shifted clock. */
  check: 'regenerate' | 'rerun'
  /** What differed, one line each: `reply: "a" ≠ "b"`, `trace.toState: menu ≠ idle`. */
  differences: string[]
}

export interface ReplayCheckReport {
  /** How many deterministic turns were checked. */
  checked: number
  mismatches: ReplayMismatch[]
}

/** Everything `runConversation` observed. The session and controller stay usable afterwards. */
export interface ConversationRun<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> {
  turns: TurnResult<Ctx, N>[]
  /** Every trace of the run in order (without the replay check's own turns). */
  traces: TurnTrace[]
  adapterCalls: AdapterCall[]
  snapshot: SessionSnapshot<Ctx, N>
  messages: Message[]
  /** Present when `replayCheck` was on. */
  replayCheck?: ReplayCheckReport
  session: ChatSession<Ctx, N>
  controller: ChatrailController
}
