import type { ComponentPart } from '../contract/component-part.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import type { ActionConfirmationCoordinator } from './action-confirmation.js'
import { ChatrailConfigError, configIssue } from './config-error.js'
import { identifierHint, isIdentifier } from './identifier.js'
import type { JsonObject } from './json.js'

/**
 * Route constructors. A route says which user input (`match`), in which states (`states`, and
 * the current state must declare `event`), fires which machine event, and what to answer.
 * Routes are evaluated in declaration order; the first eligible match wins (see `route-index.ts`).
 */

/** Author labels copied into the trace (`repaired`/`fallback` are upstream's labels, not computed). */
export type RouteTraceKind = 'deterministic' | 'repaired' | 'fallback'

/** What a pattern route matched: the whole match, where it starts, and its named groups. */
export interface RouteMatch {
  readonly value: string
  readonly index: number
  readonly groups: Readonly<Record<string, string>>
}

/**
 * What a route callback sees. Read-only; `messageId` and `turnId` are stable across replay, so
 * component instance ids derived from them stay the same when a turn is regenerated.
 */
export interface RouteContext<Ctx extends JsonObject = JsonObject> {
  readonly input: string
  /** The UI event carried by the user message (`metadata.chatrail.event`), if any. */
  readonly uiEvent: string | undefined
  readonly state: string
  readonly context: Readonly<Ctx>
  readonly history: readonly Message[]
  readonly sessionId: string
  readonly messageId: string | undefined
  readonly turnId: string
  readonly match?: RouteMatch
  /**
   * Aborted when the turn is stopped or its route runs past `routeTimeoutMs`: pass it to `fetch`
   * and other async work so a stopped turn stops its work too. Never aborted during a rebuild.
   */
  readonly signal: AbortSignal
  /**
   * The session's confirmation coordinator, when it has one (`createChatSession(definition, {
   * confirmations })`; chatrail/server's sessions when the handler serves confirmations): propose
   * here, and the record lives where the server's endpoints and the approval cards decide it.
   */
  readonly confirmations?: ActionConfirmationCoordinator
}

/** A piece of a route's answer, in order: text, or a component (made by a `chatrail/components` registry). */
export type RouteContent = string | ComponentPart

export interface RouteOutput<Ctx extends JsonObject = JsonObject> {
  text?: string
  /** Text and components after `text`, in order (`[text, registry.render('choice-list', …)]`). */
  content?: readonly RouteContent[]
  /** Extra chunks after the text and content, e.g. `tool_call` payloads. */
  chunks?: StreamChunk[]
  /** Shallow patch applied to the context when the transition commits. */
  assign?: Partial<Ctx>
}

export type RouteResult<Ctx extends JsonObject = JsonObject> = string | readonly RouteContent[] | RouteOutput<Ctx>

/*
 * Callback types are declared through a method (`{ fn(…): … }['fn']`) so their parameters are
 * checked bivariantly: a `ChatDefinition<{ order?: string }>` then stays assignable to the
 * default `ChatDefinition` that generic tooling (renderers, the testing kit) accepts.
 */
export type RouteResponder<Ctx extends JsonObject = JsonObject> = {
  fn(input: string, ctx: RouteContext<Ctx>): RouteResult<Ctx> | Promise<RouteResult<Ctx>>
}['fn']

/** A constant answer, or a callback (sync or async) computing it. */
export type RouteResponse<Ctx extends JsonObject = JsonObject> = RouteResult<Ctx> | RouteResponder<Ctx>

export type RouteGuard<Ctx extends JsonObject = JsonObject> = { fn(ctx: RouteContext<Ctx>): boolean }['fn']

/**
 * Fields every route shares. `E` and `S` are the definition's event and state names (`string`
 * unless `defineChat` inferred them; see docs/conversation.md § Typed names).
 */
export interface RouteOptions<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string> {
  id: string
  /**
   * The machine event the route fires (the current state must declare it, in its own `on` or the
   * conversation's). Leave it out for a reply-only route: it answers without a transition, in any
   * state its `states` allow (final states included); its `assign` still patches the context.
   */
  event?: E
  /**
   * Start over: the route returns the conversation to `initial` with the definition's context
   * (instead of firing an event; a route has `event` or `restart`, not both). Fires in its `states`
   * (default: every state); an event route with `restart` is what `getSnapshot().restart` offers.
   */
  restart?: true
  /** When set, the route fires only in these states. */
  states?: readonly S[]
  guard?: RouteGuard<Ctx>
  response: RouteResponse<Ctx>
  /**
   * The re-prompt when the route matched but its `guard` or the transition's guard refused: a
   * deterministic answer with no transition (trace outcome `refused`). Without it a refused route
   * guard lets later routes try, and a refused transition is an error turn.
   */
  refuse?: RouteResponse<Ctx>
  /** How long this route's async callbacks may take (ms); overrides `conversation.routeTimeoutMs`. */
  routeTimeoutMs?: number
  traceKind?: RouteTraceKind
  /** What the route is for; shown by tools and answered from by the offline demo adapter. */
  description?: string
}

export interface CommandRoute<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string> extends Readonly<RouteOptions<Ctx, E, S>> {
  readonly kind: 'command'
  readonly command: string
  readonly caseSensitive: boolean
  readonly trim: boolean
}

export interface TextRoute<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string> extends Readonly<RouteOptions<Ctx, E, S>> {
  readonly kind: 'text'
  readonly texts: readonly string[]
}

/** `true` assigns every named group to the context key of the same name. */
export type PatternAssign<Ctx extends JsonObject = JsonObject> =
  | true
  | { fn(groups: Readonly<Record<string, string>>, ctx: RouteContext<Ctx>): Partial<Ctx> }['fn']

export interface PatternRoute<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string> extends Readonly<RouteOptions<Ctx, E, S>> {
  readonly kind: 'pattern'
  readonly pattern: RegExp
  readonly assign?: PatternAssign<Ctx>
}

export type RouteMatcher<Ctx extends JsonObject = JsonObject> = {
  fn(input: string, ctx: RouteContext<Ctx>): boolean | Promise<boolean>
}['fn']

export interface CustomRoute<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string> extends Readonly<RouteOptions<Ctx, E, S>> {
  readonly kind: 'custom'
  readonly match: RouteMatcher<Ctx>
}

export interface EventRoute<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string, U extends string = string>
  extends Readonly<RouteOptions<Ctx, E, S>> {
  readonly kind: 'event'
  readonly uiEvent: U
}

/** A route; `E`, `S` and `U` are the event, state and UI-event names it uses (`string` when unknown). */
export type Route<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string, U extends string = string> =
  | CommandRoute<Ctx, E, S>
  | TextRoute<Ctx, E, S>
  | PatternRoute<Ctx, E, S>
  | CustomRoute<Ctx, E, S>
  | EventRoute<Ctx, E, S, U>

/*
 * The constructors infer the route's names from the options literal (a `const` type parameter),
 * so `defineChat` can check them against the definition's; `EventOf`/`StatesOf`/`UiEventOf` read
 * them back. `Ctx` appears only under `NoInfer`: it comes from the definition the route is written
 * in (`defineChat<Ctx>()({ … })`) or an explicit `commandRoute<Ctx>(…)`, never from an `assign`, so
 * a wrongly typed `assign` is reported at the `assign` itself. A name left out, or not a literal
 * (the options of `commandRoute<Ctx>(…)`, or the defaults TypeScript falls back to when the literal
 * has an error elsewhere), reads as `never`: unchecked, the route fits any definition, so an error
 * is reported once, where it is, never again at the routes list.
 */
type Literal<N> = string extends N ? never : N
type EventOf<O> = O extends { readonly event?: infer E extends string } ? Literal<E> : never
type StatesOf<O> = O extends { readonly states?: readonly (infer S extends string)[] } ? Literal<S> : never
type UiEventOf<O> = O extends { readonly uiEvent: infer U extends string } ? Literal<U> : never

export type CommandRouteOptions<Ctx extends JsonObject = JsonObject> = RouteOptions<Ctx> & { command: string; caseSensitive?: boolean; trim?: boolean }
export type TextRouteOptions<Ctx extends JsonObject = JsonObject> = RouteOptions<Ctx> & ({ text: string; texts?: never } | { texts: readonly string[]; text?: never })
export type PatternRouteOptions<Ctx extends JsonObject = JsonObject> = RouteOptions<Ctx> & { pattern: RegExp; assign?: PatternAssign<Ctx> }
export type CustomRouteOptions<Ctx extends JsonObject = JsonObject> = RouteOptions<Ctx> & { match: RouteMatcher<Ctx> }
export type EventRouteOptions<Ctx extends JsonObject = JsonObject> = RouteOptions<Ctx> & { uiEvent: string }

export type RouteKind = Route['kind']

/**
 * The route object: `{ ...options, ...own }`, frozen. Built with `Object.assign` because V8 gives
 * every object that is spread and then extended a hidden class of its own, so 10,000 routes made
 * 10,000 shapes and every read of a route field (validation, the route index) went megamorphic
 * (issue 20: validating and linting 10,000 routes took ≈4× as long). Options carrying an own
 * `__proto__` key (parsed JSON) keep the spread, which defines it as a key where `Object.assign`
 * would set the prototype.
 */
function freezeRoute<R>(options: object, own: object): R {
  return Object.freeze(Object.hasOwn(options, '__proto__') ? { ...options, ...own } : Object.assign({}, options, own)) as R
}

/*
 * The constructors' argument checks catch developer mistakes (an empty command, a pattern that is no
 * RegExp), never runtime input, so they run in development only, like the definition check they
 * repeat (define-chat.ts, issue 32): each is written behind the NODE_ENV test inline, so a bundler's
 * `define` turns it into `false` and the minifier drops the check, its messages and `fail`. Servers
 * and the CLI still check every definition, these fields included (definition-schema.ts), whatever
 * NODE_ENV. `typeof process` keeps plain browsers (no `process`, no bundler) from a ReferenceError.
 */
function fail(kind: string, id: unknown, field: string, message: string, hint: string): never {
  const label = typeof id === 'string' && id !== '' ? `${kind} "${id}"` : kind
  throw new ChatrailConfigError([configIssue(`invalid_${field}`, [field], `${label}: ${message}`, hint)])
}

/** An exact command (`/start`). Trimmed and case-sensitive unless told otherwise. */
export function commandRoute<Ctx extends JsonObject = JsonObject, const O extends CommandRouteOptions<NoInfer<Ctx>> = CommandRouteOptions<Ctx>>(
  options: O,
): CommandRoute<Ctx, EventOf<O>, StatesOf<O>>
export function commandRoute(options: CommandRouteOptions): CommandRoute {
  const { command, caseSensitive = true, trim = true } = options
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' && (typeof command !== 'string' || (trim ? command.trim() : command) === '')) {
    fail('commandRoute', options.id, 'command', 'the command is empty.', 'Give the exact command text, e.g. command: "/start".')
  }
  return freezeRoute(options, { kind: 'command', command: trim ? command.trim() : command, caseSensitive, trim })
}

/** Loose text equality: NFKC, trimmed, whitespace collapsed, lowercase (`"  Hi   THERE "` = `"hi there"`). */
export function textRoute<Ctx extends JsonObject = JsonObject, const O extends TextRouteOptions<NoInfer<Ctx>> = TextRouteOptions<Ctx>>(
  options: O,
): TextRoute<Ctx, EventOf<O>, StatesOf<O>>
export function textRoute(options: TextRouteOptions): TextRoute {
  const texts = options.texts ?? (options.text === undefined ? [] : [options.text])
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' && (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== 'string' || t.trim() === ''))) {
    fail('textRoute', options.id, 'texts', 'needs `text` or a non-empty `texts` list of non-blank strings.', 'e.g. texts: ["hi", "hello"].')
  }
  const { text: _text, texts: _texts, ...rest } = options
  return freezeRoute(rest, { kind: 'text', texts: Object.freeze([...texts]) })
}

/**
 * A RegExp. Named groups reach the response as `ctx.match.groups`; `assign` copies them into the
 * context. `g`/`y` flags are dropped: a stateful `lastIndex` would make matching depend on history.
 */
export function patternRoute<Ctx extends JsonObject = JsonObject, const O extends PatternRouteOptions<NoInfer<Ctx>> = PatternRouteOptions<Ctx>>(
  options: O,
): PatternRoute<Ctx, EventOf<O>, StatesOf<O>>
export function patternRoute(options: PatternRouteOptions): PatternRoute {
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production') {
    if (!(options.pattern instanceof RegExp)) {
      fail('patternRoute', options.id, 'pattern', 'pattern must be a RegExp.', 'e.g. pattern: /order (?<order>\\d+)/i.')
    }
    if (options.assign !== undefined && options.assign !== true && typeof options.assign !== 'function') {
      fail('patternRoute', options.id, 'assign', 'assign must be `true` or a function of the groups.', 'e.g. assign: (g) => ({ order: g.order }).')
    }
  }
  const pattern = new RegExp(options.pattern.source, options.pattern.flags.replace(/[gy]/g, ''))
  return freezeRoute(options, { kind: 'pattern', pattern })
}

/** A predicate of your own; `match(input, ctx)` may be async and must not have side effects. */
export function route<Ctx extends JsonObject = JsonObject, const O extends CustomRouteOptions<NoInfer<Ctx>> = CustomRouteOptions<Ctx>>(
  options: O,
): CustomRoute<Ctx, EventOf<O>, StatesOf<O>>
export function route(options: CustomRouteOptions): CustomRoute {
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' && typeof options.match !== 'function') {
    fail('route', options.id, 'match', 'match must be a function (input, ctx) => boolean.', 'e.g. match: (input) => input.endsWith("?").')
  }
  return freezeRoute(options, { kind: 'custom' })
}

/**
 * A UI event (button, choice click) carried in the user message's `metadata.chatrail.event`.
 * Only messages carrying that event match, so typing the label can never forge the click.
 */
export function eventRoute<Ctx extends JsonObject = JsonObject, const O extends EventRouteOptions<NoInfer<Ctx>> = EventRouteOptions<Ctx>>(
  options: O,
): EventRoute<Ctx, EventOf<O>, StatesOf<O>, UiEventOf<O>>
export function eventRoute(options: EventRouteOptions): EventRoute {
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' && !isIdentifier(options.uiEvent)) {
    fail('eventRoute', options.id, 'uiEvent', `uiEvent ${JSON.stringify(options.uiEvent)} is not identifier-safe.`, identifierHint(options.uiEvent))
  }
  return freezeRoute(options, { kind: 'event' })
}
