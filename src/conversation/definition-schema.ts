import type { ConfigIssue } from './config-error.js'
import type { ChatDefinitionInput, ConversationDefinition } from './definition.js'
import { closestName, suggestName } from './did-you-mean.js'
import { identifierHint, isIdentifier } from './identifier.js'
import { findNonJson } from './json.js'
import { routesCertainlyValid } from './route-shape.js'
import { array, boolean, fn, instanceOf, minLength, object, oneOf, optional, positiveInt, record, string, tagged, union, unknown, type Shape, type ShapeIssue } from './shape-check.js'

/**
 * Definition validation in two passes: a shape check (types, unknown keys with a "did you mean"),
 * then the semantic checks a shape cannot express (declared states, unique ids, identifier-safe
 * names). Pure; returns every issue instead of stopping at the first. The shape check was a zod
 * schema; it is now ./shape-check.js, which reports what that schema did, in the same words
 * (issue 32: zod was a third of a minimal browser app), so no message changed.
 */

/**
 * The shapes, built on first use: a production bundle leaves validation out (define-chat.ts), and
 * shapes built at module level are calls a bundler must keep wherever the module lands in a chunk
 * with code the app uses (the built package's chunks: +2.1 kB gzip of a minimal app).
 */
function buildShapes() {
  const optionalString = optional(string)
  const optionalFn = optional(fn)
  const strings = array(string)
  const outputFields = { text: optionalString, chunks: optional(array(object({ type: string }, false))) }
  const outputObject = object({ ...outputFields, assign: optional(record(unknown)) }, true)

  const responseSchema = union(string, outputObject, fn)

  const routeCommon = {
    id: string,
    event: optionalString,
    restart: optional(oneOf(true)),
    states: optional(strings),
    guard: optionalFn,
    response: responseSchema,
    refuse: optional(responseSchema),
    routeTimeoutMs: optional(positiveInt(false)),
    traceKind: optional(oneOf('deterministic', 'repaired', 'fallback')),
    description: optionalString,
  }
  const routeOf = (kind: string, own: Record<string, Shape>): Shape => object({ ...routeCommon, kind: oneOf(kind), ...own }, true)
  const nonEmpty = minLength(string, 1)

  const routeSchema = tagged('kind', {
    command: routeOf('command', { command: nonEmpty, caseSensitive: boolean, trim: boolean }),
    text: routeOf('text', { texts: minLength(array(nonEmpty), 1) }),
    pattern: routeOf('pattern', { pattern: instanceOf(RegExp), assign: optional(union(oneOf(true), fn)) }),
    custom: routeOf('custom', { match: fn }),
    event: routeOf('event', { uiEvent: string }),
  })

  const formText = union(string, fn)
  const optionalFormText = optional(formText)
  const slotSchema = object({
    prompt: formText,
    validate: optional(union(fn, object({ safeParse: fn }, false))),
    reprompt: optionalFormText,
    maxAttempts: optional(positiveInt(false)),
  }, true)
  const formSchema = object({
    slots: record(slotSchema),
    done: string,
    response: optionalFormText,
    exhausted: optionalString,
    exhaustedResponse: optionalFormText,
  }, true)
  const transitionsSchema = optional(record(union(string, object({ target: string, guard: optionalFn, description: optionalString }, true))))

  const stateShape = {
    on: transitionsSchema,
    actions: optional(strings),
    final: optional(boolean),
    description: optionalString,
    ignoreGlobal: optional(union(oneOf(true), strings)),
    form: optional(formSchema),
  }

  const conversationShape = {
    initial: string,
    states: record(object(stateShape, true)),
    on: transitionsSchema,
    context: optional(record(unknown)),
    routes: array(routeSchema),
    fallback: optional(object({ response: union(string, object(outputFields, true), fn) }, true)),
    agentTransitions: optional(boolean),
    onTrace: optionalFn,
    routeTimeoutMs: optional(positiveInt(false)),
    unavailable: optionalString,
    eventLabels: optional(record(string)),
  }

  const definitionShape = {
    id: string,
    revision: optional(positiveInt(true)),
    chat: object({ adapter: optional(object({ createSource: fn }, false)) }, false),
    conversation: object(conversationShape, true),
    components: optional(object({ keys: unknown, resolve: fn }, false)),
    // its tokens are checked by resolveChatTheme and lintDefinition, so a session's bundle has no theme code
    theme: optional(record(unknown)),
  }
  const definitionSchema = object(definitionShape, true)
  return { definitionSchema, definitionShape, conversationShape, stateShape, routeCommon }
}

let shapes: ReturnType<typeof buildShapes> | undefined
const shapesOf = (): ReturnType<typeof buildShapes> => (shapes ??= buildShapes())

/** The keys a "did you mean" suggests from, read off the shapes (one list to keep up to date). */
function knownKeysAt(path: readonly PropertyKey[]): readonly string[] {
  const { definitionShape, conversationShape, stateShape, routeCommon } = shapesOf()
  const shape = path.length === 0 ? definitionShape : path.length === 1 && path[0] === 'conversation' ? conversationShape : path.length === 3 && path[1] === 'states' ? stateShape : undefined
  if (shape) return Object.keys(shape)
  return path.length === 3 && path[1] === 'routes' ? Object.keys(routeCommon) : []
}

function toConfigIssues(issue: ShapeIssue): ConfigIssue[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol')
  const where = path.length > 0 ? path.join('.') : 'the definition'
  if (issue.keys) {
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

/**
 * Every issue of `input`, structural first, then semantic (only when the shape is right). Pure but
 * for `positions`, which it fills with each route id's first position in the table (the route
 * index's own map, handed over by `defineChat`, so a definition's ids are hashed once, not twice).
 */
export function validateDefinition(input: unknown, positions: Map<string, number> = new Map()): ConfigIssue[] {
  // Routes made by the constructors skip the shape check (issue 20: zod spent ~4 µs a route); a table
  // with anything unusual goes through it, for its messages. route-shape.ts says why this is safe.
  const conversation = (input as { conversation?: { routes?: unknown } } | null)?.conversation
  const quick = routesCertainlyValid(conversation?.routes)
  const shapeIssues: ShapeIssue[] = []
  shapesOf().definitionSchema(quick ? { ...(input as object), conversation: { ...conversation, routes: [] } } : input, shapeIssues, [])
  if (shapeIssues.length > 0) return shapeIssues.flatMap(toConfigIssues)
  const def = input as ChatDefinitionInput
  const issues: ConfigIssue[] = []
  // One helper per kind of issue keeps the table of messages below one line each.
  const add = (code: string, path: Path, message: string, hint: string): void => void issues.push({ code, path, message, hint })
  const identifier = (value: string, path: Path, what: string): void => {
    if (!isIdentifier(value)) add('invalid_identifier', path, `${what} ${JSON.stringify(value)} is not identifier-safe.`, identifierHint(value))
  }
  // The shape check above requires it (defineChat fills in the plain conversation first).
  const conv = def.conversation as ConversationDefinition
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
  const seen = positions
  // Event names already found identifier-safe: most routes share a few events (issue 20).
  const safeEvents = new Set<string>()
  const routes = conv.routes
  // A valid route allocates nothing here, not even its path (10,000 routes, issue 20; issue 32 § 2).
  const at = (index: number, ...rest: (string | number)[]): Path => ['conversation', 'routes', index, ...rest]
  for (let index = 0; index < routes.length; index++) {
    const route = routes[index] as (typeof routes)[number]
    const { id, event } = route
    if (!isIdentifier(id)) identifier(id, at(index, 'id'), 'Route id')
    if (event !== undefined && !safeEvents.has(event)) {
      if (isIdentifier(event)) safeEvents.add(event)
      else identifier(event, at(index, 'event'), `Event of route "${id}"`)
    }
    if (event !== undefined && route.restart) add('restart_with_event', at(index, 'restart'), `Route "${id}" has both \`event\` and \`restart\`.`, 'A restart returns to `initial` by itself: drop `event`.')
    const first = seen.get(id)
    if (first !== undefined) add('duplicate_route_id', at(index, 'id'), `Route id "${id}" is used by routes ${first} and ${index}.`, `Rename one, e.g. "${id}-2".`)
    else seen.set(id, index)
    if (route.states !== undefined) {
      route.states.forEach((state, i) => {
        if (!stateSet.has(state)) undeclared('unknown_route_state', at(index, 'states', i), `Route "${id}" is restricted to undeclared state ${JSON.stringify(state)}.`, state)
      })
    }
    if (route.kind === 'event' && !isIdentifier(route.uiEvent)) identifier(route.uiEvent, at(index, 'uiEvent'), `UI event of route "${id}"`)
  }
  // A development aid, as the "did you mean" is: a label naming no event shows nowhere, so a production
  // bundle (NODE_ENV "production") leaves the check out and keeps the minimal app's load as it was.
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' && conv.eventLabels) {
    const events = [...globalEvents, ...Object.values(conv.states).flatMap((state) => Object.keys(state.on ?? {})), ...routes.flatMap((route) => (route as { uiEvent?: string }).uiEvent ?? [])]
    for (const event in conv.eventLabels) if (!events.includes(event)) add('unknown_labelled_event', ['conversation', 'eventLabels', event], `No event or UI event "${event}" to label.`, suggestName(event, [...new Set(events)], 'event'))
  }
  if (def.chat.adapter === undefined && conv.fallback === undefined) {
    add('no_agentic_answer', ['chat', 'adapter'], 'chat.adapter is missing and conversation.fallback is not set: unmatched input would get no answer.', 'Set chat.adapter (the agentic fallback) or conversation.fallback: { response: "…" }.')
  }
  return issues
}
