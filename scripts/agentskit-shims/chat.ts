/**
 * `@agentskit/chat` (AgentsKit Chat 9836963, packages/chat/src/index.ts) under chatrail's names, for
 * its define-chat suite run by scripts/agentskit-chat-suite.ts. Rename-only: each export is a
 * chatrail API under AgentsKit's name, with arguments and results mapped field by field where the
 * shapes are spelled differently (`now` → `clock`, a route object without `kind` → `route(...)`,
 * a frame → a component part through chatrail's own AgentsKit codec, a snapshot or trace projected
 * to AgentsKit's fields). Nothing here decides, stores or validates anything: a name chatrail has
 * no equivalent for is exported as a function that throws `NOT_MAPPED`, so its tests fail and are
 * counted as missing, never passed by the shim.
 */
import {
  ChatrailError,
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
import { defineComponents, fromAgentskitFrame, standardCatalog, STANDARD_COMPONENT_KEYS, choiceList, type ComponentRegistry } from '../../src/components/index.js'

export { commandRoute } from '../../src/index.js'
export { createActionConfirmation, createCapabilityPolicy, withActionPolicy } from '../../src/conversation/actions.js'
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

const notMapped = (name: string) => (): never => {
  throw new ChatrailError({ code: 'NOT_MAPPED', message: `agentskit shim: chatrail has no equivalent of ${name}.` })
}

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
  const decoded = fromAgentskitFrame(frame, 'route')
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
  const decoded = fromAgentskitFrame(frame, 'route')
  if (!decoded.ok) return decoded
  const checked = manifest.interactUnknown(decoded.part, event, value)
  return checked.ok ? { type: 'interact', ...checked.value } : checked
}

export const selectChoice = notMapped('selectChoice (an interaction needs the registry: registry.interact)')
export const getLifecycleTargets = notMapped('getLifecycleTargets')
export const parseSemanticFallback = notMapped('parseSemanticFallback')
export const formatSemanticFallback = notMapped('formatSemanticFallback')
