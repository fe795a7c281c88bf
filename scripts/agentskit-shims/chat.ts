/**
 * `@agentskit/chat` (AgentsKit Chat 9836963, packages/chat/src/index.ts) under chatrail's names, for
 * its define-chat suite run by scripts/agentskit-chat-suite.ts. Rename-only: each export is a
 * chatrail API under AgentsKit's name, with arguments and results mapped field by field where the
 * shapes are spelled differently (`now` → `clock`, a route object without `kind` → `route(...)`,
 * a frame → a component part through chatrail's own AgentsKit codec, a snapshot or trace projected
 * to AgentsKit's fields). Nothing here decides, stores or validates anything. Every name the suite
 * imports has a chatrail equivalent now; one that had none would be exported as a function that
 * throws `NOT_MAPPED`, so its tests fail and count as missing, never passed by the shim.
 */
import {
  createChatSession as chatrailCreateChatSession,
  defineChat as chatrailDefineChat,
  resolveChatSession as chatrailResolveChatSession,
  resumeChatSession as chatrailResumeChatSession,
  route,
  type ChatSession,
  type ChatSessionOptions,
  type SessionStorage,
  type TurnTrace as ChatrailTurnTrace,
} from '../../src/index.js'
import {
  defineComponents,
  formatSemanticFallback,
  fromAgentskitFrame,
  parseSemanticFallback,
  selectChoice as chatrailSelectChoice,
  standardCatalog,
  STANDARD_COMPONENT_KEYS,
  choiceList,
  type ComponentRegistry,
} from '../../src/components/index.js'
import { getLifecycleTargets as chatrailGetLifecycleTargets } from '../../src/controller/index.js'

export { commandRoute } from '../../src/index.js'
import { createActionConfirmation as chatrailCreateActionConfirmation, createCapabilityPolicy as chatrailCreateCapabilityPolicy } from '../../src/conversation/actions.js'
import type { ActionConfirmation } from '../../src/contract/action-confirmation.js'
export { withActionPolicy } from '../../src/conversation/actions.js'
export { resolveChatTheme } from '../../src/conversation/theme.js'
export { STANDARD_COMPONENT_KEYS }

/** AgentsKit's trace: decision metadata only. */
export interface TurnTrace {
  readonly kind: ChatrailTurnTrace['kind']
  readonly routeId?: string
  readonly fromState: string
  readonly toState: string
}

type AnyRecord = Record<string, unknown>


const traceOf = (trace: ChatrailTurnTrace): TurnTrace => ({ kind: trace.kind, ...(trace.routeId === undefined ? {} : { routeId: trace.routeId }), fromState: trace.fromState, toState: trace.toState })

// AgentsKit route objects are plain `{ id, event, match, response }`; chatrail's are made by `route()`.
const routeOf = (value: AnyRecord): unknown => ('kind' in value ? value : route(value as unknown as Parameters<typeof route>[0]))

export function defineChat(definition: AnyRecord): ReturnType<typeof chatrailDefineChat> {
  const conversation = definition.conversation as AnyRecord | undefined
  if (!conversation) return chatrailDefineChat(definition as never)
  const onTrace = conversation.onTrace as ((trace: TurnTrace) => unknown) | undefined
  return chatrailDefineChat({
    ...definition,
    conversation: {
      ...conversation,
      routes: (conversation.routes as AnyRecord[]).map(routeOf),
      ...(onTrace ? { onTrace: (trace: ChatrailTurnTrace) => onTrace(traceOf(trace)) } : {}),
    },
  } as never)
}

interface AgentsKitSessionOptions {
  sessionId?: string
  storage?: SessionStorage
  now?: () => Date
  signal?: AbortSignal
}

const optionsOf = (options: AgentsKitSessionOptions = {}): ChatSessionOptions => ({
  ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  ...(options.storage === undefined ? {} : { storage: options.storage }),
  ...(options.now === undefined ? {} : { clock: options.now }),
  ...(options.signal === undefined ? {} : { signal: options.signal }),
})

/** The session with AgentsKit's `getConversationSnapshot()` (chatrail's `getSnapshot()` projected to `{ state, events, actions }`). */
function withAgentsKitNames(session: ChatSession): ChatSession & { getConversationSnapshot: () => { state: string; events: readonly string[]; actions: readonly string[] } } {
  return new Proxy(session, {
    get(target, key, receiver) {
      if (key === 'getConversationSnapshot') {
        return () => {
          const { state, events, actions } = target.getSnapshot()
          return { state, events, actions }
        }
      }
      return Reflect.get(target, key, receiver) as unknown
    },
  }) as never
}

export function createChatSession(definition: ReturnType<typeof chatrailDefineChat>, options?: AgentsKitSessionOptions) {
  return withAgentsKitNames(chatrailCreateChatSession(definition, optionsOf(options)))
}

export async function resumeChatSession(definition: ReturnType<typeof chatrailDefineChat>, options: AgentsKitSessionOptions & { sessionId: string; storage: SessionStorage }) {
  return withAgentsKitNames(await chatrailResumeChatSession(definition, { ...optionsOf(options), sessionId: options.sessionId, storage: options.storage }))
}

export function resolveChatSession(definition: ReturnType<typeof chatrailDefineChat>, session?: ChatSession) {
  return withAgentsKitNames(chatrailResolveChatSession(definition, session))
}

// Components: AgentsKit's manifest is chatrail's registry; its frames are read by chatrail's AgentsKit codec.
export const ChoiceListComponent = choiceList
export const StandardComponentCatalog = standardCatalog
/** AgentsKit's manifest is a record by key (`manifest[key]`); chatrail's registry answers `get(key)`. */
export function defineComponentManifest(definitions: Parameters<typeof defineComponents>[0]): ComponentRegistry {
  const registry = defineComponents(definitions)
  return new Proxy(registry, {
    get: (target, key, receiver) => (typeof key === 'string' && !(key in target) ? target.get(key) : (Reflect.get(target, key, receiver) as unknown)),
  })
}

export function resolveComponentFrame(frame: unknown, manifest: ComponentRegistry) {
  const decoded = fromAgentskitFrame(chatrailFrame(frame), 'route')
  if (!decoded.ok) return { ok: false as const, diagnostic: decoded.diagnostic }
  const resolved = manifest.resolve(decoded.part)
  if (!resolved.ok) return { ok: false as const, diagnostic: resolved.diagnostic }
  return { ok: true as const, frame, props: resolved.value.props }
}
export const resolveChoiceListFrame = resolveComponentFrame

export function resolveComponentFallback(frame: unknown, manifest: ComponentRegistry) {
  const resolved = resolveComponentFrame(frame, manifest)
  return resolved.ok ? (frame as { fallback: unknown }).fallback : undefined
}

export function createComponentInteraction(frame: unknown, manifest: ComponentRegistry, event: string, value?: unknown) {
  const decoded = fromAgentskitFrame(chatrailFrame(frame), 'route')
  if (!decoded.ok) return decoded
  const checked = manifest.interactUnknown(decoded.part, event, value)
  return checked.ok ? { type: 'interact', ...checked.value } : checked
}

/** AgentsKit's selection event `{ type: 'select', choiceId }` is chatrail's interaction `{ event: 'select', value }`; its frame is a part. */
export function selectChoice(frame: unknown, choiceId: string) {
  const decoded = fromAgentskitFrame(frame, 'route')
  if (!decoded.ok) return decoded
  const { componentKey, instanceId, event, value } = chatrailSelectChoice(decoded.part, choiceId)
  return { type: event, componentKey, instanceId, choiceId: value }
}

/** AgentsKit's targets are chatrail's without `canRetry`. */
export function getLifecycleTargets(messages: Parameters<typeof chatrailGetLifecycleTargets>[0]) {
  const { userId, assistantId } = chatrailGetLifecycleTargets(messages)
  return { userId, assistantId }
}
export { formatSemanticFallback, parseSemanticFallback }

// Actions: AgentsKit's record spells chatrail's `action: { name, input }` as `action: name` and `input`.
const isRecord = (value: unknown): value is ActionConfirmation =>
  typeof value === 'object' && value !== null && 'token' in value && typeof (value as { action?: unknown }).action === 'object'
const recordOf = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(recordOf)
  if (!isRecord(value)) return value
  return Object.freeze({ ...value, action: value.action.name, input: value.action.input })
}

/** chatrail's coordinator, every record it returns (synchronously or not) under AgentsKit's field names. */
export function createActionConfirmation(options: Parameters<typeof chatrailCreateActionConfirmation>[0]) {
  const coordinator = chatrailCreateActionConfirmation(options)
  return new Proxy(coordinator, {
    get(target, key, receiver) {
      const member = Reflect.get(target, key, receiver) as unknown
      if (typeof member !== 'function') return member
      return (...args: unknown[]) => {
        const result = (member as (...values: unknown[]) => unknown).apply(target, args)
        return result instanceof Promise ? result.then(recordOf) : recordOf(result)
      }
    },
  })
}

/**
 * AgentsKit's `policy.authorizeToolCall(call, { phase })` answers the decision code as `reason`;
 * chatrail's answers a sentence for the controller's error and gives the code from
 * `policy.check(action, phase, toolCallId)` (the same decision, recorded the same way). AgentsKit's
 * trace stamps `timestamp` (ms) where chatrail's has `at` (ISO). `compose`, used by
 * `withActionPolicy`, is chatrail's own.
 */
export function createCapabilityPolicy(options: Parameters<typeof chatrailCreateCapabilityPolicy>[0]) {
  const policy = chatrailCreateCapabilityPolicy(options)
  return {
    ...policy,
    authorizeToolCall: (call: { id: string; name: string }, context: { phase: 'propose' | 'execute' }) => policy.check(call.name, context.phase, call.id),
    getTrace: () => policy.getTrace().map((trace) => ({ ...trace, timestamp: Date.parse(trace.at) })),
  }
}

// Catalog props AgentsKit spells differently (renames on input only; values are not converted):
// form fields `{ id, type }` are chatrail's `{ name, kind }`, a tool call's `arguments` its `args`.
const renamedProps: Record<string, (props: AnyRecord) => AnyRecord> = {
  form: (props) => (Array.isArray(props.fields)
    ? { ...props, fields: (props.fields as unknown[]).map((field) => (typeof field === 'object' && field !== null ? renameKeys(field as AnyRecord, { id: 'name', type: 'kind' }) : field)) }
    : props),
  'tool-call': (props) => renameKeys(props, { arguments: 'args' }),
}
function renameKeys(value: AnyRecord, names: Record<string, string>): AnyRecord {
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [names[key] ?? key, field]))
}
function chatrailFrame(frame: unknown): unknown {
  if (typeof frame !== 'object' || frame === null) return frame
  const { componentKey, props } = frame as AnyRecord
  const rename = typeof componentKey === 'string' && Object.hasOwn(renamedProps, componentKey) ? renamedProps[componentKey] : undefined
  return rename && typeof props === 'object' && props !== null && !Array.isArray(props) ? { ...frame, props: rename(props as AnyRecord) } : frame
}
