import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
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
}

export interface RouteOutput<Ctx extends JsonObject = JsonObject> {
  text?: string
  /** Extra chunks after the text, e.g. `tool_call` payloads a renderer shows as components. */
  chunks?: StreamChunk[]
  /** Shallow patch applied to the context when the transition commits. */
  assign?: Partial<Ctx>
}

export type RouteResult<Ctx extends JsonObject = JsonObject> = string | RouteOutput<Ctx>

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

/** Fields every route shares. */
export interface RouteOptions<Ctx extends JsonObject = JsonObject> {
  id: string
  event: string
  /** When set, the route fires only in these states. */
  states?: readonly string[]
  guard?: RouteGuard<Ctx>
  response: RouteResponse<Ctx>
  traceKind?: RouteTraceKind
  /** What the route is for; shown by tools and answered from by the offline demo adapter. */
  description?: string
}

export interface CommandRoute<Ctx extends JsonObject = JsonObject> extends Readonly<RouteOptions<Ctx>> {
  readonly kind: 'command'
  readonly command: string
  readonly caseSensitive: boolean
  readonly trim: boolean
}

export interface TextRoute<Ctx extends JsonObject = JsonObject> extends Readonly<RouteOptions<Ctx>> {
  readonly kind: 'text'
  readonly texts: readonly string[]
}

/** `true` assigns every named group to the context key of the same name. */
export type PatternAssign<Ctx extends JsonObject = JsonObject> =
  | true
  | { fn(groups: Readonly<Record<string, string>>, ctx: RouteContext<Ctx>): Partial<Ctx> }['fn']

export interface PatternRoute<Ctx extends JsonObject = JsonObject> extends Readonly<RouteOptions<Ctx>> {
  readonly kind: 'pattern'
  readonly pattern: RegExp
  readonly assign?: PatternAssign<Ctx>
}

export type RouteMatcher<Ctx extends JsonObject = JsonObject> = {
  fn(input: string, ctx: RouteContext<Ctx>): boolean | Promise<boolean>
}['fn']

export interface CustomRoute<Ctx extends JsonObject = JsonObject> extends Readonly<RouteOptions<Ctx>> {
  readonly kind: 'custom'
  readonly match: RouteMatcher<Ctx>
}

export interface EventRoute<Ctx extends JsonObject = JsonObject> extends Readonly<RouteOptions<Ctx>> {
  readonly kind: 'event'
  readonly uiEvent: string
}

export type Route<Ctx extends JsonObject = JsonObject> =
  | CommandRoute<Ctx>
  | TextRoute<Ctx>
  | PatternRoute<Ctx>
  | CustomRoute<Ctx>
  | EventRoute<Ctx>

export type RouteKind = Route['kind']

function fail(kind: string, id: unknown, field: string, message: string, hint: string): never {
  const label = typeof id === 'string' && id !== '' ? `${kind} "${id}"` : kind
  throw new ChatrailConfigError([configIssue(`invalid_${field}`, [field], `${label}: ${message}`, hint)])
}

/** An exact command (`/start`). Trimmed and case-sensitive unless told otherwise. */
export function commandRoute<Ctx extends JsonObject = JsonObject>(
  options: RouteOptions<Ctx> & { command: string; caseSensitive?: boolean; trim?: boolean },
): CommandRoute<Ctx> {
  const { command, caseSensitive = true, trim = true } = options
  if (typeof command !== 'string' || (trim ? command.trim() : command) === '') {
    fail('commandRoute', options.id, 'command', 'the command is empty.', 'Give the exact command text, e.g. command: "/start".')
  }
  return Object.freeze({ ...options, kind: 'command', command: trim ? command.trim() : command, caseSensitive, trim })
}

/** Loose text equality: NFKC, trimmed, whitespace collapsed, lowercase (`"  Hi   THERE "` = `"hi there"`). */
export function textRoute<Ctx extends JsonObject = JsonObject>(
  options: RouteOptions<Ctx> & ({ text: string; texts?: never } | { texts: readonly string[]; text?: never }),
): TextRoute<Ctx> {
  const texts = options.texts ?? (options.text === undefined ? [] : [options.text])
  if (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== 'string' || t.trim() === '')) {
    fail('textRoute', options.id, 'texts', 'needs `text` or a non-empty `texts` list of non-blank strings.', 'e.g. texts: ["hi", "hello"].')
  }
  const { text: _text, texts: _texts, ...rest } = options
  return Object.freeze({ ...rest, kind: 'text', texts: Object.freeze([...texts]) })
}

/**
 * A RegExp. Named groups reach the response as `ctx.match.groups`; `assign` copies them into the
 * context. `g`/`y` flags are dropped: a stateful `lastIndex` would make matching depend on history.
 */
export function patternRoute<Ctx extends JsonObject = JsonObject>(
  options: RouteOptions<Ctx> & { pattern: RegExp; assign?: PatternAssign<Ctx> },
): PatternRoute<Ctx> {
  if (!(options.pattern instanceof RegExp)) {
    fail('patternRoute', options.id, 'pattern', 'pattern must be a RegExp.', 'e.g. pattern: /order (?<order>\\d+)/i.')
  }
  if (options.assign !== undefined && options.assign !== true && typeof options.assign !== 'function') {
    fail('patternRoute', options.id, 'assign', 'assign must be `true` or a function of the groups.', 'e.g. assign: (g) => ({ order: g.order }).')
  }
  const pattern = new RegExp(options.pattern.source, options.pattern.flags.replace(/[gy]/g, ''))
  return Object.freeze({ ...options, kind: 'pattern', pattern })
}

/** A predicate of your own; `match(input, ctx)` may be async and must not have side effects. */
export function route<Ctx extends JsonObject = JsonObject>(
  options: RouteOptions<Ctx> & { match: RouteMatcher<Ctx> },
): CustomRoute<Ctx> {
  if (typeof options.match !== 'function') {
    fail('route', options.id, 'match', 'match must be a function (input, ctx) => boolean.', 'e.g. match: (input) => input.endsWith("?").')
  }
  return Object.freeze({ ...options, kind: 'custom' })
}

/**
 * A UI event (button, choice click) carried in the user message's `metadata.chatrail.event`.
 * Only messages carrying that event match, so typing the label can never forge the click.
 */
export function eventRoute<Ctx extends JsonObject = JsonObject>(
  options: RouteOptions<Ctx> & { uiEvent: string },
): EventRoute<Ctx> {
  if (!isIdentifier(options.uiEvent)) {
    fail('eventRoute', options.id, 'uiEvent', `uiEvent ${JSON.stringify(options.uiEvent)} is not identifier-safe.`, identifierHint(options.uiEvent))
  }
  return Object.freeze({ ...options, kind: 'event' })
}
