// The definition validation as it was before issue 32, on a zod schema: the oracle that
// definition-oracle.test.ts holds the zod-free shape check (src/conversation/shape-check.ts) to.
// Kept verbatim but for import paths and the function's name; do not "fix" it.
import * as z from 'zod/mini'
import { inEnglish } from '../../src/contract/english-issues.js'
import type { ConfigIssue } from '../../src/conversation/config-error.js'
import type { ChatDefinitionInput, ConversationDefinition } from '../../src/conversation/definition.js'
import { closestName, suggestName } from '../../src/conversation/did-you-mean.js'
import { identifierHint, isIdentifier } from '../../src/conversation/identifier.js'
import { findNonJson } from '../../src/conversation/json.js'
import { routesCertainlyValid } from '../../src/conversation/route-shape.js'

/**
 * Definition validation in two passes: a zod schema for the shape (types, unknown keys with a
 * "did you mean"), then the semantic checks the schema cannot express (declared states, unique
 * ids, identifier-safe names). Pure; returns every issue instead of stopping at the first.
 */

const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'Expected a function')
// Sub-schemas used in several places are built once (zod schemas are immutable, so sharing is safe).
const string = z.string()
const optionalString = z.optional(string)
const optionalFn = z.optional(fn)
const strings = z.array(string)
const positiveInt = z.number().check(z.int(), z.positive())
const outputFields = { text: optionalString, chunks: z.optional(z.array(z.looseObject({ type: string }))) }
const outputObject = z.strictObject({ ...outputFields, assign: z.optional(z.record(string, z.unknown())) })

const responseSchema = z.union([string, outputObject, fn])

const routeCommon = {
  id: string,
  event: optionalString,
  restart: z.optional(z.literal(true)),
  states: z.optional(strings),
  guard: optionalFn,
  response: responseSchema,
  refuse: z.optional(responseSchema),
  routeTimeoutMs: z.optional(positiveInt),
  traceKind: z.optional(z.enum(['deterministic', 'repaired', 'fallback'])),
  description: optionalString,
}
const routeOf = <K extends string, S extends z.core.$ZodLooseShape>(kind: K, own: S) => z.strictObject({ ...routeCommon, kind: z.literal(kind), ...own })
const nonEmpty = z.string().check(z.minLength(1))

const routeSchema = z.discriminatedUnion('kind', [
  routeOf('command', { command: nonEmpty, caseSensitive: z.boolean(), trim: z.boolean() }),
  routeOf('text', { texts: z.array(nonEmpty).check(z.minLength(1)) }),
  routeOf('pattern', { pattern: z.instanceof(RegExp), assign: z.optional(z.union([z.literal(true), fn])) }),
  routeOf('custom', { match: fn }),
  routeOf('event', { uiEvent: string }),
])

const formText = z.union([string, fn])
const optionalFormText = z.optional(formText)
const slotSchema = z.strictObject({
  prompt: formText,
  validate: z.optional(z.union([fn, z.looseObject({ safeParse: fn })])),
  reprompt: optionalFormText,
  maxAttempts: z.optional(positiveInt),
})
const formSchema = z.strictObject({
  slots: z.record(string, slotSchema),
  done: string,
  response: optionalFormText,
  exhausted: optionalString,
  exhaustedResponse: optionalFormText,
})
const transitionsSchema = z.optional(z.record(string, z.union([string, z.strictObject({ target: string, guard: optionalFn, description: optionalString })])))

const stateSchema = z.strictObject({
  on: transitionsSchema,
  actions: z.optional(strings),
  final: z.optional(z.boolean()),
  description: optionalString,
  ignoreGlobal: z.optional(z.union([z.literal(true), strings])),
  form: z.optional(formSchema),
})

const conversationSchema = z.strictObject({
  initial: string,
  states: z.record(string, stateSchema),
  on: transitionsSchema,
  context: z.optional(z.record(string, z.unknown())),
  routes: z.array(routeSchema),
  fallback: z.optional(z.strictObject({ response: z.union([string, z.strictObject(outputFields), fn]) })),
  agentTransitions: z.optional(z.boolean()),
  onTrace: optionalFn,
  routeTimeoutMs: z.optional(positiveInt),
  unavailable: optionalString,
  eventLabels: z.optional(z.record(string, string)),
})

const definitionSchema = z.strictObject({
  id: string,
  revision: z.optional(z.number().check(z.int(), z.positive(), z.maximum(Number.MAX_SAFE_INTEGER))),
  chat: z.looseObject({ adapter: z.optional(z.looseObject({ createSource: fn })) }),
  conversation: conversationSchema,
  components: z.optional(z.looseObject({ keys: z.unknown(), resolve: fn })),
  theme: z.optional(z.record(z.string(), z.unknown())),
})

/** The keys a "did you mean" suggests from, read off the schemas (one list to keep up to date). */
function knownKeysAt(path: readonly PropertyKey[]): readonly string[] {
  const schema = path.length === 0 ? definitionSchema : path.length === 1 && path[0] === 'conversation' ? conversationSchema : path.length === 3 && path[1] === 'states' ? stateSchema : undefined
  if (schema) return Object.keys(schema.shape)
  return path.length === 3 && path[1] === 'routes' ? Object.keys(routeCommon) : []
}

function fromZod(issue: z.core.$ZodIssue): ConfigIssue[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol')
  const where = path.length > 0 ? path.join('.') : 'the definition'
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const close = closestName(key, knownKeysAt(path))
      return {
        code: 'unknown_key',
        path: [...path, key],
        message: `Unknown key "${key}" in ${where}.`,
        hint: close ? `Did you mean "${close}"?` : `Remove it; known keys: ${knownKeysAt(path).join(', ') || 'see docs/conversation.md'}.`,
      }
    })
  }
  const hint =
    path.at(-1) === 'kind' || (path[1] === 'routes' && issue.code === 'invalid_union')
      ? 'Build routes with commandRoute, textRoute, patternRoute, route or eventRoute.'
      : `Fix ${where} (see docs/conversation.md for the field's type).`
  return [{ code: issue.code, path, message: `${where}: ${issue.message}`, hint }]
}

type Path = (string | number)[]

/** Every issue of `input`, structural first, then semantic (only when the shape is right). Pure. */
export function validateWithZod(input: unknown): ConfigIssue[] {
  // Routes made by the constructors skip the schema (issue 20: zod spends ~4 µs a route); a table with
  // anything unusual goes through it, for its messages. route-shape.ts says why this is safe.
  const conversation = (input as { conversation?: { routes?: unknown } } | null)?.conversation
  const quick = routesCertainlyValid(conversation?.routes)
  const parsed = definitionSchema.safeParse(quick ? { ...(input as object), conversation: { ...conversation, routes: [] } } : input, inEnglish)
  if (!parsed.success) return parsed.error.issues.flatMap(fromZod)
  const def = input as ChatDefinitionInput
  const issues: ConfigIssue[] = []
  // One helper per kind of issue keeps the table of messages below one line each.
  const add = (code: string, path: Path, message: string, hint: string): void => void issues.push({ code, path, message, hint })
  const identifier = (value: string, path: Path, what: string): void => {
    if (!isIdentifier(value)) add('invalid_identifier', path, `${what} ${JSON.stringify(value)} is not identifier-safe.`, identifierHint(value))
  }
  const conv = def.conversation as NonNullable<typeof def.conversation>
  const stateNames = Object.keys(conv.states)
  const stateSet = new Set(stateNames)
  const undeclared = (code: string, path: Path, message: string, state: string): void => add(code, path, message, suggestName(state, stateNames, 'state'))

  identifier(def.id, ['id'], 'Definition id')
  if (stateNames.length === 0) add('no_states', ['conversation', 'states'], 'The conversation declares no states.', 'Declare at least the initial state, e.g. states: { idle: {} }.')
  if (!stateSet.has(conv.initial)) undeclared('unknown_initial', ['conversation', 'initial'], `Initial state ${JSON.stringify(conv.initial)} is not declared in conversation.states.`, conv.initial)
  const checkTransitions = (on: ConversationDefinition['on'], at: Path, who: string): void => {
    for (const [event, transition] of Object.entries(on ?? {})) {
      if (transition === undefined) continue
      identifier(event, [...at, 'on', event], `Event name (in ${who})`)
      const target = typeof transition === 'string' ? transition : transition.target
      if (!stateSet.has(target)) undeclared('unknown_target', [...at, 'on', event, ...(typeof transition === 'string' ? [] : ['target'])], `${who} sends event "${event}" to undeclared state ${JSON.stringify(target)}.`, target)
    }
  }
  const globalEvents = Object.keys(conv.on ?? {})
  checkTransitions(conv.on, ['conversation'], 'the conversation-level `on`')
  for (const [name, state] of Object.entries(conv.states)) {
    const at = ['conversation', 'states', name]
    identifier(name, at, 'State name')
    checkTransitions(state.on, at, `State "${name}"`)
    const ignored = state.ignoreGlobal === true ? globalEvents : (state.ignoreGlobal ?? [])
    if (Array.isArray(state.ignoreGlobal)) {
      state.ignoreGlobal.forEach((event, i) => {
        if (!globalEvents.includes(event)) add('unknown_ignored_event', [...at, 'ignoreGlobal', i], `State "${name}" ignores "${event}", which the conversation-level \`on\` does not declare.`, suggestName(event, globalEvents, 'event'))
      })
    }
    const form = state.form
    if (!form) continue
    const declares = (event: string): boolean => event in (state.on ?? {}) || (!state.final && globalEvents.includes(event) && !ignored.includes(event))
    for (const key of ['done', 'exhausted'] as const) {
      const event = form[key]
      if (event !== undefined && !declares(event)) add('undeclared_form_event', [...at, 'form', key], `The form of state "${name}" fires "${event}", which the state does not declare.`, `Add on: { ${event}: "<next state>" } to "${name}".`)
    }
    for (const [slot, definition] of Object.entries(form.slots)) {
      identifier(slot, [...at, 'form', 'slots', slot], 'Slot name')
      if (definition.maxAttempts !== undefined && form.exhausted === undefined) add('max_attempts_without_event', [...at, 'form', 'slots', slot, 'maxAttempts'], `Slot "${slot}" sets maxAttempts but the form declares no \`exhausted\` event to fire.`, 'Add form.exhausted (e.g. "handoff"), or drop maxAttempts.')
    }
  }
  const badContext = conv.context === undefined ? undefined : findNonJson(conv.context)
  if (badContext) add('context_not_json', ['conversation', 'context', ...badContext], 'The context must be a JSON object (strings, numbers, booleans, null, arrays, plain objects).', 'Replace the value at this path with JSON (e.g. a Date with its ISO string).')
  const seen = new Map<string, number>()
  // Event names already found identifier-safe: most routes share a few events (issue 20).
  const safeEvents = new Set<string>()
  conv.routes.forEach((route, index) => {
    const at = ['conversation', 'routes', index]
    const { id, event } = route
    // Tested first so a valid route allocates no path or message (10,000 routes, issue 20).
    if (!isIdentifier(id)) identifier(id, [...at, 'id'], 'Route id')
    if (event !== undefined && !safeEvents.has(event)) {
      if (isIdentifier(event)) safeEvents.add(event)
      else identifier(event, [...at, 'event'], `Event of route "${id}"`)
    }
    if (event !== undefined && route.restart) add('restart_with_event', [...at, 'restart'], `Route "${id}" has both \`event\` and \`restart\`.`, 'A restart returns to `initial` by itself: drop `event`.')
    const first = seen.get(id)
    if (first !== undefined) add('duplicate_route_id', [...at, 'id'], `Route id "${id}" is used by routes ${first} and ${index}.`, `Rename one, e.g. "${id}-2".`)
    else seen.set(id, index)
    route.states?.forEach((state, i) => {
      if (!stateSet.has(state)) undeclared('unknown_route_state', [...at, 'states', i], `Route "${id}" is restricted to undeclared state ${JSON.stringify(state)}.`, state)
    })
    if (route.kind === 'event' && !isIdentifier(route.uiEvent)) identifier(route.uiEvent, [...at, 'uiEvent'], `UI event of route "${id}"`)
  })
  if (conv.eventLabels) {
    const events = [...globalEvents, ...Object.values(conv.states).flatMap((state) => Object.keys(state.on ?? {})), ...conv.routes.flatMap((route) => (route as { uiEvent?: string }).uiEvent ?? [])]
    for (const event in conv.eventLabels) if (!events.includes(event)) add('unknown_labelled_event', ['conversation', 'eventLabels', event], `No event or UI event "${event}" to label.`, suggestName(event, [...new Set(events)], 'event'))
  }
  if (def.chat.adapter === undefined && conv.fallback === undefined) {
    add('no_agentic_answer', ['chat', 'adapter'], 'chat.adapter is missing and conversation.fallback is not set: unmatched input would get no answer.', 'Set chat.adapter (the agentic fallback) or conversation.fallback: { response: "…" }.')
  }
  return issues
}
