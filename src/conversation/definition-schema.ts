import * as z from 'zod/mini'
import { inEnglish } from '../contract/english-issues.js'
import type { ConfigIssue } from './config-error.js'
import type { ChatDefinitionInput, ConversationDefinition } from './definition.js'
import { closestName, suggestName } from './did-you-mean.js'
import { identifierHint, isIdentifier } from './identifier.js'
import { findNonJson } from './json.js'
import { routesCertainlyValid } from './route-shape.js'

/**
 * Definition validation in two passes: a zod schema for the shape (types, unknown keys with a
 * "did you mean"), then the semantic checks the schema cannot express (declared states, unique
 * ids, identifier-safe names). Pure; returns every issue instead of stopping at the first.
 */

const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'Expected a function')
const chunkList = z.array(z.looseObject({ type: z.string() }))
const outputObject = z.strictObject({ text: z.optional(z.string()), chunks: z.optional(chunkList), assign: z.optional(z.record(z.string(), z.unknown())) })
const fallbackOutput = z.strictObject({ text: z.optional(z.string()), chunks: z.optional(chunkList) })

const responseSchema = z.union([z.string(), outputObject, fn])
const timeoutMs = z.number().check(z.int(), z.positive())

const routeCommon = {
  id: z.string(),
  event: z.optional(z.string()),
  restart: z.optional(z.literal(true)),
  states: z.optional(z.array(z.string())),
  guard: z.optional(fn),
  response: responseSchema,
  refuse: z.optional(responseSchema),
  routeTimeoutMs: z.optional(timeoutMs),
  traceKind: z.optional(z.enum(['deterministic', 'repaired', 'fallback'])),
  description: z.optional(z.string()),
}

const routeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...routeCommon, kind: z.literal('command'), command: z.string().check(z.minLength(1)), caseSensitive: z.boolean(), trim: z.boolean() }),
  z.strictObject({ ...routeCommon, kind: z.literal('text'), texts: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)) }),
  z.strictObject({ ...routeCommon, kind: z.literal('pattern'), pattern: z.instanceof(RegExp), assign: z.optional(z.union([z.literal(true), fn])) }),
  z.strictObject({ ...routeCommon, kind: z.literal('custom'), match: fn }),
  z.strictObject({ ...routeCommon, kind: z.literal('event'), uiEvent: z.string() }),
])

const transitionSchema = z.union([z.string(), z.strictObject({ target: z.string(), guard: z.optional(fn), description: z.optional(z.string()) })])

const formText = z.union([z.string(), fn])
const slotSchema = z.strictObject({
  prompt: formText,
  validate: z.optional(z.union([fn, z.looseObject({ safeParse: fn })])),
  reprompt: z.optional(formText),
  maxAttempts: z.optional(z.number().check(z.int(), z.positive())),
})
const formSchema = z.strictObject({
  slots: z.record(z.string(), slotSchema),
  done: z.string(),
  response: z.optional(formText),
  exhausted: z.optional(z.string()),
  exhaustedResponse: z.optional(formText),
})
const transitionsSchema = z.optional(z.record(z.string(), transitionSchema))

const stateSchema = z.strictObject({
  on: transitionsSchema,
  actions: z.optional(z.array(z.string())),
  final: z.optional(z.boolean()),
  description: z.optional(z.string()),
  ignoreGlobal: z.optional(z.union([z.literal(true), z.array(z.string())])),
  form: z.optional(formSchema),
})

const conversationSchema = z.strictObject({
  initial: z.string(),
  states: z.record(z.string(), stateSchema),
  on: transitionsSchema,
  context: z.optional(z.record(z.string(), z.unknown())),
  routes: z.array(routeSchema),
  fallback: z.optional(z.strictObject({ response: z.union([z.string(), fallbackOutput, fn]) })),
  agentTransitions: z.optional(z.boolean()),
  onTrace: z.optional(fn),
  routeTimeoutMs: z.optional(timeoutMs),
  unavailable: z.optional(z.string()),
})

const definitionSchema = z.strictObject({
  id: z.string(),
  revision: z.optional(z.number().check(z.int(), z.positive(), z.maximum(Number.MAX_SAFE_INTEGER))),
  chat: z.looseObject({ adapter: z.optional(z.looseObject({ createSource: fn })) }),
  conversation: conversationSchema,
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

function checkIdentifier(issues: ConfigIssue[], value: string, path: (string | number)[], what: string): void {
  if (!isIdentifier(value)) {
    issues.push({
      code: 'invalid_identifier',
      path,
      message: `${what} ${JSON.stringify(value)} is not identifier-safe.`,
      hint: identifierHint(value),
    })
  }
}

/** Every issue of `input`, structural first, then semantic (only when the shape is right). Pure. */
export function validateDefinition(input: unknown): ConfigIssue[] {
  // Routes made by the constructors skip the schema (issue 20: zod spends ~4 µs a route); a table with
  // anything unusual goes through it, for its messages. route-shape.ts says why this is safe.
  const conversation = (input as { conversation?: { routes?: unknown } } | null)?.conversation
  const quick = routesCertainlyValid(conversation?.routes)
  const parsed = definitionSchema.safeParse(quick ? { ...(input as object), conversation: { ...conversation, routes: [] } } : input, inEnglish)
  if (!parsed.success) return parsed.error.issues.flatMap(fromZod)
  const def = input as ChatDefinitionInput
  const issues: ConfigIssue[] = []
  const conv = def.conversation
  const stateNames = Object.keys(conv.states)
  const stateSet = new Set(stateNames)

  checkIdentifier(issues, def.id, ['id'], 'Definition id')
  if (stateNames.length === 0) {
    issues.push({ code: 'no_states', path: ['conversation', 'states'], message: 'The conversation declares no states.', hint: 'Declare at least the initial state, e.g. states: { idle: {} }.' })
  }
  if (!stateSet.has(conv.initial)) {
    issues.push({
      code: 'unknown_initial',
      path: ['conversation', 'initial'],
      message: `Initial state ${JSON.stringify(conv.initial)} is not declared in conversation.states.`,
      hint: suggestName(conv.initial, stateNames, 'state'),
    })
  }
  const checkTransitions = (on: ConversationDefinition['on'], at: (string | number)[], who: string): void => {
    for (const [event, transition] of Object.entries(on ?? {})) {
      if (transition === undefined) continue
      checkIdentifier(issues, event, [...at, 'on', event], `Event name (in ${who})`)
      const target = typeof transition === 'string' ? transition : transition.target
      if (!stateSet.has(target)) {
        issues.push({
          code: 'unknown_target',
          path: [...at, 'on', event, ...(typeof transition === 'string' ? [] : ['target'])],
          message: `${who} sends event "${event}" to undeclared state ${JSON.stringify(target)}.`,
          hint: suggestName(target, stateNames, 'state'),
        })
      }
    }
  }
  const globalEvents = Object.keys(conv.on ?? {})
  checkTransitions(conv.on, ['conversation'], 'the conversation-level `on`')
  for (const [name, state] of Object.entries(conv.states)) {
    const at = ['conversation', 'states', name]
    checkIdentifier(issues, name, at, 'State name')
    checkTransitions(state.on, at, `State "${name}"`)
    const ignored = state.ignoreGlobal === true ? globalEvents : (state.ignoreGlobal ?? [])
    if (Array.isArray(state.ignoreGlobal)) {
      state.ignoreGlobal.forEach((event, i) => {
        if (!globalEvents.includes(event)) issues.push({ code: 'unknown_ignored_event', path: [...at, 'ignoreGlobal', i], message: `State "${name}" ignores "${event}", which the conversation-level \`on\` does not declare.`, hint: suggestName(event, globalEvents, 'event') })
      })
    }
    const form = state.form
    if (!form) continue
    const declares = (event: string): boolean => event in (state.on ?? {}) || (!state.final && globalEvents.includes(event) && !ignored.includes(event))
    for (const key of ['done', 'exhausted'] as const) {
      const event = form[key]
      if (event !== undefined && !declares(event)) {
        issues.push({ code: 'undeclared_form_event', path: [...at, 'form', key], message: `The form of state "${name}" fires "${event}", which the state does not declare.`, hint: `Add on: { ${event}: "<next state>" } to "${name}".` })
      }
    }
    for (const [slot, definition] of Object.entries(form.slots)) {
      checkIdentifier(issues, slot, [...at, 'form', 'slots', slot], 'Slot name')
      if (definition.maxAttempts !== undefined && form.exhausted === undefined) {
        issues.push({ code: 'max_attempts_without_event', path: [...at, 'form', 'slots', slot, 'maxAttempts'], message: `Slot "${slot}" sets maxAttempts but the form declares no \`exhausted\` event to fire.`, hint: 'Add form.exhausted (e.g. "handoff"), or drop maxAttempts.' })
      }
    }
  }
  const badContext = conv.context === undefined ? undefined : findNonJson(conv.context)
  if (badContext) {
    issues.push({ code: 'context_not_json', path: ['conversation', 'context', ...badContext], message: 'The context must be a JSON object (strings, numbers, booleans, null, arrays, plain objects).', hint: 'Replace the value at this path with JSON (e.g. a Date with its ISO string).' })
  }
  const seen = new Map<string, number>()
  // Event names already found identifier-safe: most routes share a few events (issue 20).
  const safeEvents = new Set<string>()
  conv.routes.forEach((route, index) => {
    const at = ['conversation', 'routes', index]
    // Tested first so a valid route allocates no path or message (10,000 routes, issue 20).
    if (!isIdentifier(route.id)) checkIdentifier(issues, route.id, [...at, 'id'], 'Route id')
    if (route.event !== undefined && !safeEvents.has(route.event)) {
      if (isIdentifier(route.event)) safeEvents.add(route.event)
      else checkIdentifier(issues, route.event, [...at, 'event'], `Event of route "${route.id}"`)
    }
    if (route.event !== undefined && route.restart) {
      issues.push({ code: 'restart_with_event', path: [...at, 'restart'], message: `Route "${route.id}" has both \`event\` and \`restart\`.`, hint: 'A restart returns to `initial` by itself: drop `event`.' })
    }
    const first = seen.get(route.id)
    if (first !== undefined) {
      issues.push({ code: 'duplicate_route_id', path: [...at, 'id'], message: `Route id "${route.id}" is used by routes ${first} and ${index}.`, hint: `Rename one, e.g. "${route.id}-2".` })
    } else seen.set(route.id, index)
    route.states?.forEach((state, i) => {
      if (!stateSet.has(state)) {
        issues.push({
          code: 'unknown_route_state',
          path: [...at, 'states', i],
          message: `Route "${route.id}" is restricted to undeclared state ${JSON.stringify(state)}.`,
          hint: suggestName(state, stateNames, 'state'),
        })
      }
    })
    if (route.kind === 'event' && !isIdentifier(route.uiEvent)) checkIdentifier(issues, route.uiEvent, [...at, 'uiEvent'], `UI event of route "${route.id}"`)
  })
  if (def.chat.adapter === undefined && conv.fallback === undefined) {
    issues.push({
      code: 'no_agentic_answer',
      path: ['chat', 'adapter'],
      message: 'chat.adapter is missing and conversation.fallback is not set: unmatched input would get no answer.',
      hint: 'Set chat.adapter (the agentic fallback) or conversation.fallback: { response: "…" }.',
    })
  }
  return issues
}
