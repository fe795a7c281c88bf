import type { ComponentPart, ComponentProvenance } from '../contract/component-part.js'
import { ChatrailError, markErrorClass } from '../contract/errors.js'
import { configIssue, throwIfIssues, type ConfigIssue } from '../conversation/config-error.js'
import { checkBoundedJson } from './bounded-json.js'
import type { AnyComponentDefinition, ComponentEventValue, EventPayload, EventsOf, PropsOf } from './component-definition.js'
import { refused, type Checked, type ComponentDiagnostic } from './component-diagnostics.js'
import { isSafeUrl } from './safe-url.js'

/**
 * A closed registry of component definitions: the only components a route can make, a renderer
 * draws and an interaction can name. Everything else (an unknown key, `constructor`, props that
 * fail the schema, an undeclared event) is inert and says why with a typed code.
 */

const KEY = /^[a-z][a-z0-9-]{0,63}$/
const INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/
const MAX_SUMMARY = 4096
const MAX_FORM_FIELDS = 64

/** A component refused when it was made (by a route: the route fails and nothing changes). */
export class ComponentError extends ChatrailError {
  readonly diagnostic: ComponentDiagnostic
  constructor(diagnostic: ComponentDiagnostic) {
    super({ code: diagnostic.code, message: diagnostic.message })
    this.name = 'ComponentError'
    this.diagnostic = diagnostic
  }

  static override isInstance(value: unknown): value is ComponentError {
    return isComponentError(value)
  }
}
const isComponentError = markErrorClass(ComponentError, 'ComponentError')

export interface RenderOptions {
  /** Unique within the message. Default: the key and a hash of the props (stable across replays). */
  readonly instanceId?: string
  /** Default `route`; `host` for components the app adds itself. `agent` is set by the agent tool path only. */
  readonly provenance?: Exclude<ComponentProvenance, 'agent'>
}

/** An accepted interaction: what a renderer sends and what the session records (deduplicated by message and instance). */
export interface ComponentInteraction {
  readonly componentKey: string
  readonly instanceId: string
  readonly event: string
  readonly value?: unknown
}

type DefinitionFor<Defs extends readonly AnyComponentDefinition[], K> = Extract<Defs[number], { readonly key: K }>

export interface ComponentRegistry<Defs extends readonly AnyComponentDefinition[] = readonly AnyComponentDefinition[]> {
  readonly keys: readonly Defs[number]['key'][]
  /** The definition of an own key; `undefined` for anything else (`constructor`, `__proto__`, unknown). */
  get: (key: string) => AnyComponentDefinition | undefined
  /** A component part from valid props; throws `ComponentError` otherwise. */
  render: <K extends Defs[number]['key']>(key: K, props: PropsOf<DefinitionFor<Defs, K>>, options?: RenderOptions) => ComponentPart
  /** A part from outside (a stored message, a client) checked again against its definition. */
  resolve: (part: unknown) => Checked<{ readonly part: ComponentPart; readonly definition: AnyComponentDefinition; readonly props: unknown }>
  /** An interaction checked against the part's definition and props. */
  interact: <K extends Defs[number]['key'], E extends keyof EventsOf<DefinitionFor<Defs, K>> & string>(
    part: ComponentPart & { readonly componentKey: K },
    event: E,
    ...value: EventsOf<DefinitionFor<Defs, K>>[E] extends 'none' ? [] : [EventPayload<EventsOf<DefinitionFor<Defs, K>>[E] & ComponentEventValue>]
  ) => Checked<ComponentInteraction>
  /** The same check for an interaction whose event and value came from outside (a request body). */
  interactUnknown: (part: unknown, event: unknown, value?: unknown) => Checked<ComponentInteraction>
}

export function defineComponents<const Defs extends readonly AnyComponentDefinition[]>(definitions: Defs): ComponentRegistry<Defs> {
  const issues: ConfigIssue[] = []
  const byKey = new Map<string, AnyComponentDefinition>()
  definitions.forEach((definition, index) => {
    if (typeof definition?.key !== 'string' || !KEY.test(definition.key)) {
      issues.push(configIssue('component_key_invalid', ['components', index, 'key'], `The component key ${JSON.stringify(definition?.key)} is not a valid key.`, 'Use lowercase letters, digits and dashes, starting with a letter (at most 64), e.g. "order-card".'))
      return
    }
    if (byKey.has(definition.key)) {
      issues.push(configIssue('component_key_duplicate', ['components', index, 'key'], `The component key "${definition.key}" is defined twice.`, 'Give each definition its own key, or drop the second one.'))
      return
    }
    if (typeof definition.props?.['~standard']?.validate !== 'function') {
      issues.push(configIssue('component_props_schema', ['components', index, 'props'], `The component "${definition.key}" has no props schema.`, 'Pass a zod (or any Standard Schema) object schema as `props`.'))
    }
    if (typeof definition.fallback !== 'function') {
      issues.push(configIssue('component_fallback', ['components', index, 'fallback'], `The component "${definition.key}" has no fallback.`, 'Add `fallback: (props) => "…"`: the text shown (and read by a model) in its place.'))
    }
    byKey.set(definition.key, definition)
  })
  throwIfIssues(issues)

  const get = (key: string): AnyComponentDefinition | undefined => (typeof key === 'string' && byKey.has(key) ? byKey.get(key) : undefined)

  const validProps = (definition: AnyComponentDefinition, props: unknown): Checked<unknown> => {
    const bounded = checkBoundedJson(props)
    if (bounded) return { ok: false, diagnostic: bounded }
    const result = definition.props['~standard'].validate(props)
    if (result instanceof Promise) return refused('COMPONENT_INVALID_PROPS', `The props schema of "${definition.key}" is asynchronous; component schemas must validate synchronously.`)
    if (result.issues) {
      const first = result.issues[0]
      const path = (first?.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)).map((key) => (typeof key === 'number' ? key : String(key)))
      return refused('COMPONENT_INVALID_PROPS', `Invalid props for "${definition.key}"${path.length ? ` at ${path.join('.')}` : ''}: ${first?.message ?? 'rejected by the schema'}.`, path)
    }
    return { ok: true, value: result.value }
  }

  const fallbackOf = (definition: AnyComponentDefinition, props: unknown): Checked<string> => {
    let summary: unknown
    try {
      summary = definition.fallback(props)
    } catch (error) {
      return refused('COMPONENT_INVALID_PROPS', `The fallback of "${definition.key}" threw: ${error instanceof Error ? error.message : String(error)}.`)
    }
    if (typeof summary !== 'string' || summary.trim() === '') return refused('COMPONENT_INVALID_PROPS', `The fallback of "${definition.key}" returned no text; it must return what is shown in the component's place.`)
    return { ok: true, value: summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary }
  }

  const render = (key: string, props: unknown, options: RenderOptions = {}): ComponentPart => {
    const definition = get(key)
    if (!definition) throw new ComponentError(refused('COMPONENT_UNKNOWN', `No component "${key}" is registered; known: ${[...byKey.keys()].join(', ') || '(none)'}.`).diagnostic)
    const checked = validProps(definition, props)
    if (!checked.ok) throw new ComponentError(checked.diagnostic)
    const summary = fallbackOf(definition, checked.value)
    if (!summary.ok) throw new ComponentError(summary.diagnostic)
    const instanceId = options.instanceId ?? `${key}-${hash(JSON.stringify(checked.value))}`
    if (!INSTANCE_ID.test(instanceId)) throw new ComponentError(refused('COMPONENT_INVALID_PART', `The instance id ${JSON.stringify(instanceId)} is not a safe id (letters, digits, . _ : -, at most 128).`).diagnostic)
    return Object.freeze({
      type: 'component',
      componentKey: key,
      instanceId,
      props: deepFreeze(structuredClone(checked.value)),
      fallback: Object.freeze({ kind: key, summary: summary.value }),
      provenance: options.provenance ?? 'route',
    })
  }

  const resolve: ComponentRegistry['resolve'] = (part) => {
    const shape = partShape(part)
    if (!shape.ok) return shape
    const definition = get(shape.value.componentKey)
    if (!definition) return refused('COMPONENT_UNKNOWN', `No component "${shape.value.componentKey}" is registered.`)
    const props = validProps(definition, shape.value.props)
    if (!props.ok) return props
    return { ok: true, value: { part: shape.value, definition, props: props.value } }
  }

  const interactUnknown: ComponentRegistry['interactUnknown'] = (part, event, value) => {
    const resolved = resolve(part)
    if (!resolved.ok) return resolved
    const { definition, props } = resolved.value
    if (typeof event !== 'string' || !Object.hasOwn(definition.events, event)) {
      return refused('COMPONENT_UNDECLARED_EVENT', `"${definition.key}" declares no event ${JSON.stringify(event)}; it declares ${Object.keys(definition.events).join(', ') || 'none'}.`)
    }
    const kind = definition.events[event] as ComponentEventValue
    const shapeProblem = valueProblem(kind, value)
    if (shapeProblem) return refused('COMPONENT_INVALID_EVENT', `The "${event}" event of "${definition.key}" ${shapeProblem}.`)
    const offered = definition.checkEvent?.(props, event, value)
    if (offered !== undefined) return refused('COMPONENT_INVALID_EVENT', `The "${event}" event of "${definition.key}": ${offered}.`)
    const interaction: ComponentInteraction = value === undefined
      ? { componentKey: definition.key, instanceId: resolved.value.part.instanceId, event }
      : { componentKey: definition.key, instanceId: resolved.value.part.instanceId, event, value: deepFreeze(structuredClone(value)) }
    return { ok: true, value: Object.freeze(interaction) }
  }

  return Object.freeze({
    keys: Object.freeze([...byKey.keys()]) as readonly Defs[number]['key'][],
    get,
    render: render as ComponentRegistry<Defs>['render'],
    resolve,
    interact: ((part: ComponentPart, event: string, value?: unknown) => interactUnknown(part, event, value)) as ComponentRegistry<Defs>['interact'],
    interactUnknown,
  })
}

/** The part's own fields, checked (a stored or client-sent part is untrusted). */
function partShape(part: unknown): Checked<ComponentPart> {
  if (typeof part !== 'object' || part === null) return refused('COMPONENT_INVALID_PART', 'A component part must be an object.')
  const candidate = part as Record<string, unknown>
  const fallback = candidate.fallback as Record<string, unknown> | undefined
  if (candidate.type !== 'component') return refused('COMPONENT_INVALID_PART', 'The part is not a component (type must be "component").')
  if (typeof candidate.componentKey !== 'string' || !KEY.test(candidate.componentKey)) return refused('COMPONENT_INVALID_PART', 'The component key is missing or not a valid key.')
  if (typeof candidate.instanceId !== 'string' || !INSTANCE_ID.test(candidate.instanceId)) return refused('COMPONENT_INVALID_PART', 'The instance id is missing or not a safe id.')
  if (typeof fallback !== 'object' || fallback === null || typeof fallback.kind !== 'string' || typeof fallback.summary !== 'string' || fallback.kind.length < 1 || fallback.kind.length > 64 || fallback.summary.length < 1 || fallback.summary.length > MAX_SUMMARY) {
    return refused('COMPONENT_INVALID_PART', 'The fallback must be { kind (1–64 characters), summary (1–4,096 characters) }.')
  }
  if (candidate.provenance !== 'route' && candidate.provenance !== 'agent' && candidate.provenance !== 'host') return refused('COMPONENT_INVALID_PART', 'The provenance must be "route", "agent" or "host".')
  return { ok: true, value: part as ComponentPart }
}

function valueProblem(kind: ComponentEventValue, value: unknown): string | undefined {
  switch (kind) {
    case 'none':
      return value === undefined ? undefined : 'carries no value'
    case 'id':
      return typeof value === 'string' && INSTANCE_ID.test(value) ? undefined : 'needs an id (letters, digits, . _ : -, at most 128)'
    case 'url':
      return typeof value === 'string' && isSafeUrl(value) ? undefined : 'needs a relative or credential-free http(s) URL'
    case 'form': {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return 'needs the form fields as a plain object'
      const entries = Object.entries(value)
      if (entries.length > MAX_FORM_FIELDS) return `has more than ${MAX_FORM_FIELDS} fields`
      const bad = entries.find(([, field]) => !(typeof field === 'boolean' || (typeof field === 'number' && Number.isFinite(field)) || (typeof field === 'string' && field.length <= 16_384)))
      return bad ? `has a field "${bad[0]}" that is not a string, a finite number or a boolean` : undefined
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/** FNV-1a, 32 bits, base 36: a short stable id from the props. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(36)
}
