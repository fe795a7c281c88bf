import type { ChatThemeInput } from './theme-tokens.js'
import type { AdapterFactory } from '../contract/adapter.js'
import type { ChatConfig } from '../contract/chat.js'
import type { ComponentCatalog } from '../contract/component-part.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import type { JsonObject, JsonValue } from './json.js'
import type { Route, RouteContent } from './routes.js'
import type { TurnTrace } from './trace.js'

/**
 * A chat definition: an AgentsKit `ChatConfig` (its adapter is the agentic fallback) plus a finite
 * conversation machine and an ordered route table. Definitions are immutable and hold no progress;
 * progress lives in the sessions created from them (seed 004). This file holds the shapes only;
 * `defineChat` (define-chat.ts) validates them through definition-schema.ts, which reads these
 * shapes, so neither of the two imports the other's importer.
 */

export interface TransitionGuardContext<Ctx extends JsonObject = JsonObject> {
  readonly state: string
  readonly event: string
  readonly context: Readonly<Ctx>
}

export interface TransitionDefinition<Ctx extends JsonObject = JsonObject, S extends string = string> {
  target: S
  /** Evaluated with the context before the turn's `assign`; `false` refuses the transition. */
  guard?(ctx: TransitionGuardContext<Ctx>): boolean
  description?: string
}

/** `S` and `E` are the definition's state and event names (`string` unless `defineChat` inferred them). */
export interface StateDefinition<Ctx extends JsonObject = JsonObject, S extends string = string, E extends string = string> {
  /** event → target state (or `{ target, guard }`). Only declared events can fire here. */
  on?: TransitionMap<Ctx, S, E>
  /** Affordances the UI may offer in this state; projected into the snapshot, never executed. */
  actions?: string[]
  final?: boolean
  description?: string
  /**
   * Opt out of the conversation-level `on`: `true` for every event, or the events to ignore here.
   * (Final states never take conversation-level transitions.)
   */
  ignoreGlobal?: true | readonly NoInfer<E>[]
  /** The state collects slots (Rasa forms, Dialogflow CX parameters): see `FormDefinition`. */
  form?: FormDefinition<Ctx, NoInfer<E>>
}

/**
 * event → target. Its keys are where `defineChat` infers the event names from (a state's `on` and
 * the conversation's); a target (`NoInfer`) can only name a declared state.
 */
export type TransitionMap<Ctx extends JsonObject = JsonObject, S extends string = string, E extends string = string> = string extends E
  ? Record<string, NoInfer<S> | TransitionDefinition<Ctx, NoInfer<S>>>
  : { [K in E]?: NoInfer<S> | TransitionDefinition<Ctx, NoInfer<S>> }

/** Text a form says: constant, or computed (synchronously) from the context. */
export type FormText<Ctx extends JsonObject = JsonObject> = string | { fn(context: Readonly<Ctx>): string }['fn']

/**
 * Checks and converts a slot's answer: a zod schema (anything with `safeParse`; its `data` is
 * stored), or a function returning the value to store, or `undefined` when the answer is invalid.
 * Synchronous and pure, like a guard: a rebuild never calls it (the stored records carry the value).
 */
export type SlotValidator<Ctx extends JsonObject = JsonObject> =
  | { safeParse(value: unknown): { success: boolean; data?: unknown } }
  | { fn(input: string, context: Readonly<Ctx>): JsonValue | undefined }['fn']

export interface FormSlot<Ctx extends JsonObject = JsonObject> {
  /** Asked when this is the next empty slot (appended to the answer that enters the state). */
  prompt: FormText<Ctx>
  /** Default: any non-blank answer, stored trimmed. */
  validate?: SlotValidator<Ctx>
  /** The re-prompt after an invalid answer (trace outcome `refused`). Default: the prompt. */
  reprompt?: FormText<Ctx>
  /** Invalid answers allowed for this slot before `form.exhausted` fires. Default: unlimited. */
  maxAttempts?: number
}

/**
 * A form: while the state has an empty slot, a user message no route takes is the answer to the
 * first empty slot (in declaration order). A valid answer lands in the context under the slot's
 * name; when every slot is filled, `done` fires. Invalid-answer counts live in the context
 * (`formAttempts`, cleared by every transition), so replay and rebuild see them.
 */
export interface FormDefinition<Ctx extends JsonObject = JsonObject, E extends string = string> {
  slots: Record<string, FormSlot<Ctx>>
  /** Fired when every slot is filled; the state must declare it (own or conversation `on`). */
  done: E
  /** The answer when the form completes (sees the filled context). Default: none. */
  response?: FormText<Ctx>
  /** Fired when a slot's `maxAttempts` run out (e.g. hand off to a person); declared like `done`. */
  exhausted?: E
  /** The answer when `exhausted` fires. Default: none. */
  exhaustedResponse?: FormText<Ctx>
}

/** What the fallback answer sees: the route context without a match, plus the failure's class. */
export interface FallbackContext<Ctx extends JsonObject = JsonObject> {
  readonly input: string
  readonly uiEvent: string | undefined
  readonly state: string
  readonly context: Readonly<Ctx>
  readonly history: readonly Message[]
  readonly sessionId: string
  readonly messageId: string | undefined
  readonly turnId: string
  /** Why the fallback answers: the adapter error's class name, `MissingAdapter`, or `RouteTimeout`. */
  readonly errorClass: string
  /** Aborted when the turn is stopped. */
  readonly signal: AbortSignal
}

export interface FallbackOutput {
  text?: string
  /** Text and components after `text`, in order, as a route's `content`. */
  content?: readonly RouteContent[]
  chunks?: StreamChunk[]
}

export type FallbackResponse<Ctx extends JsonObject = JsonObject> =
  | string
  | FallbackOutput
  | { fn(input: string, ctx: FallbackContext<Ctx>): string | FallbackOutput | Promise<string | FallbackOutput> }['fn']

/** The answer used when the agentic adapter is missing, throws or streams an error. */
export interface FallbackDefinition<Ctx extends JsonObject = JsonObject> {
  response: FallbackResponse<Ctx>
}

export type TraceObserver = (trace: TurnTrace) => void | Promise<void>

/**
 * `S`, `E` and `U` are the state, event and UI-event names: `defineChat` infers them from the keys
 * of `states`, the keys of every `on`, and the routes' `uiEvent`s (docs/conversation.md § Typed
 * names). Every other place that names one (`initial`, targets, routes' `event` and `states`) is
 * `NoInfer`, so a typo there is an error instead of a new name.
 */
export interface ConversationDefinition<Ctx extends JsonObject = JsonObject, S extends string = string, E extends string = string, U extends string = string> {
  initial: NoInfer<S>
  states: { [K in S]: StateDefinition<Ctx, S, E> }
  /**
   * Machine-level transitions: every non-final state takes them (say `/help` or `/cancel` once).
   * A state's own `on` for the same event wins; a state opts out with `ignoreGlobal`.
   */
  on?: TransitionMap<Ctx, S, E>
  /** How long a route's async callbacks may take (ms) before the turn answers the fallback (trace outcome `timeout`). Default 30000. */
  routeTimeoutMs?: number
  /** The answer to a UI event that routes know but the current state does not take (a stale button). */
  unavailable?: string
  /**
   * What event buttons and chips say, by UI event or machine event (`{ handoff: 'Talk to a person' }`);
   * default: the name, humanized. A renderer's own labels (`<ChatSession eventLabels>`) come first.
   */
  eventLabels?: { readonly [K in NoInfer<E> | NoInfer<U>]?: string }
  /** The conversation's slots: a JSON object, patched by routes' `assign`. */
  context?: Ctx
  /** Evaluated in declaration order; the first eligible match wins. */
  routes: readonly Route<Ctx, NoInfer<E>, NoInfer<S>, U>[]
  fallback?: FallbackDefinition<Ctx>
  /** Let the agent propose a legal event through a `chatrail_transition` tool call. Off by default. */
  agentTransitions?: boolean
  /** Called for every turn of every session of this definition; failures are ignored. */
  onTrace?: TraceObserver
}

/** `ChatConfig` whose adapter may be absent (then `conversation.fallback` answers unmatched input). */
export type ChatConfigInput = Omit<ChatConfig, 'adapter'> & { adapter?: AdapterFactory }

export interface ChatDefinitionInput<Ctx extends JsonObject = JsonObject, S extends string = string, E extends string = string, U extends string = string> {
  id: string
  /** Bump when routes or states change incompatibly. Default 1. */
  revision?: number
  chat: ChatConfigInput
  /**
   * The state machine and route table. Leave it out for a plain agentic chat: one state, `chat`,
   * no routes, every message answered by `chat.adapter` (docs/conversation.md § Without a conversation).
   */
  conversation?: ConversationDefinition<Ctx, S, E, U>
  /** The components its routes may answer with (`defineComponents` from chatrail/components). */
  components?: ComponentCatalog
  /**
   * How renderers draw it (AgentsKit Chat's semantic theme): colours for a light and a dark scheme,
   * spacing, radius, font (docs/react.md § Theme). Checked by `resolveChatTheme` and `lintDefinition`
   * (unknown tokens, bad values, WCAG contrast); `defineChat` only checks it is an object.
   */
  theme?: ChatThemeInput
}

/**
 * The names a definition declares: the unions `defineChat` inferred from the definition literal,
 * or `string` where it could not (docs/conversation.md § Typed names).
 */
export interface ChatNames {
  state: string
  event: string
  uiEvent: string
}

export interface ChatDefinition<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> {
  readonly id: string
  readonly revision: number
  /** The same object you passed in. */
  readonly chat: ChatConfigInput
  readonly conversation: Readonly<ConversationDefinition<Ctx, N['state'], N['event'], N['uiEvent']>> & { readonly context: Readonly<Ctx> }
  /** The component registry, when the definition names one. */
  readonly components?: ComponentCatalog
  /** The theme as given (`resolveChatTheme` resolves it over the defaults). */
  readonly theme?: ChatThemeInput
}

/** The names of a definition or a session (`ChatNames`, all `string`, for anything else). */
export type NamesOf<T> = T extends { readonly definition: ChatDefinition<infer _Ctx, infer N> }
  ? N
  : T extends ChatDefinition<infer _Ctx, infer N>
    ? N
    : ChatNames
/**
 * A name given where a value of type `string` is fine too: `T` is the argument's own type (a
 * `const` type parameter), checked against `Names` only when it is a literal, so
 * `start: { state: 'askng' }` is an error but `start: { state: row.state }` (a `string`) is not.
 */
export type CheckedName<T extends string, Names extends string> = string extends T ? T : NoInfer<Names>

/** `StateName<typeof definition>` (or of a session): the union of its state names. */
export type StateName<T> = NamesOf<T>['state']
/** The union of a definition's (or a session's) event names. */
export type EventName<T> = NamesOf<T>['event']
/** The union of a definition's (or a session's) UI-event names (its event routes' `uiEvent`). */
export type UiEventName<T> = NamesOf<T>['uiEvent']
