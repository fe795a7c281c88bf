import * as z from 'zod/mini'
import { componentChunk } from '../contract/component-chunk.js'
import { COMPONENT_TOOL, type ComponentToolDefinition } from '../contract/component-tool.js'
import type { StreamChunk, StreamToolCallPayload } from '../contract/stream.js'
import type { JSONSchema7 } from '../contract/tool.js'
import { configIssue, throwIfIssues } from '../conversation/config-error.js'
import type { ComponentDiagnostic } from './component-diagnostics.js'
import type { AnyComponentDefinition } from './component-definition.js'
import type { ComponentRegistry, RenderOptions } from './define-components.js'
import type { ComponentPart } from '../contract/component-part.js'

/**
 * `componentTool(registry)`: the tool through which an agent proposes a component (issue 30). Declare it
 * in the definition's `chat.tools`; the model sees its schema (`{ component, props, instanceId? }`,
 * the props schemas of the registry's zod components), and the session turns each call into a
 * component part with `provenance: 'agent'`, checked by the registry exactly as a route's is. An
 * unknown key, invalid props or unreadable arguments are inert: the answer gets a line of text
 * (the agent's `fallback` if it gave one, else a fixed notice) and `metadata.componentDiagnostic`
 * with the code, never a component. The tool has no `execute`: the call is shown, not run.
 */

export interface ComponentToolOptions {
  /** Default `show_component`. */
  readonly name?: string
  readonly description?: string
}

const INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/
const MAX_FALLBACK = 4096
export const REFUSED_COMPONENT_TEXT = 'The agent proposed something this chat cannot show.'

/** A zod schema's JSON Schema (what a model reads); any other Standard Schema, or one zod cannot express, is "an object". */
function propsSchemaOf(definition: AnyComponentDefinition): JSONSchema7 {
  const schema = definition.props as unknown as { _zod?: unknown }
  if (schema._zod === undefined) return { type: 'object' }
  try {
    const { $schema: _dropped, ...json } = z.toJSONSchema(definition.props as unknown as z.ZodMiniType, { unrepresentable: 'any', io: 'input' }) as JSONSchema7 & { $schema?: string }
    return json
  } catch {
    return { type: 'object' }
  }
}

function inert(diagnostic: Pick<ComponentDiagnostic, 'code' | 'message'>, fallback: unknown): StreamChunk {
  const text = typeof fallback === 'string' && fallback.trim() !== '' ? fallback.slice(0, MAX_FALLBACK) : REFUSED_COMPONENT_TEXT
  return Object.freeze({ type: 'text', content: `\n${text}\n`, metadata: Object.freeze({ componentDiagnostic: Object.freeze({ code: diagnostic.code, message: diagnostic.message }) }) })
}

/** What the tool needs of a registry (any `defineComponents(...)`). */
export interface ComponentToolRegistry {
  readonly keys: readonly string[]
  readonly get: ComponentRegistry['get']
  readonly render: (key: never, props: never, options?: RenderOptions) => ComponentPart
}

export function componentTool(registry: ComponentToolRegistry, options: ComponentToolOptions = {}): ComponentToolDefinition {
  if (!Array.isArray(registry?.keys) || typeof registry.get !== 'function' || typeof registry.render !== 'function') {
    throwIfIssues([configIssue('invalid_component_tool', ['componentTool', 'registry'], 'componentTool needs a component registry.', 'Pass the definition\'s registry: componentTool(defineComponents([...standardCatalog])).')])
  }
  const name = options.name ?? 'show_component'
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throwIfIssues([configIssue('invalid_component_tool', ['componentTool', 'name'], `The tool name ${JSON.stringify(name)} is not a tool name a model accepts.`, 'Use 1–64 letters, digits, _ and -, e.g. "show_component".')])
  }
  const keys = [...registry.keys]
  const variants = keys.map((key) => {
    const definition = registry.get(key)
    return definition === undefined ? { type: 'object' as const } : { ...propsSchemaOf(definition), description: `props of "${key}"` }
  })
  const schema: JSONSchema7 = {
    type: 'object',
    properties: {
      component: { type: 'string', enum: keys, description: 'The component to show.' },
      props: variants.length === 0 ? { type: 'object' } : { anyOf: variants },
      instanceId: { type: 'string', pattern: INSTANCE_ID.source, description: 'Optional: unique within the answer.' },
      fallback: { type: 'string', maxLength: MAX_FALLBACK, description: 'Optional: what to show where the component cannot be drawn.' },
    },
    required: ['component', 'props'],
    additionalProperties: false,
  }
  const toChunk = (call: StreamToolCallPayload): StreamChunk => {
    let args: unknown
    try {
      args = JSON.parse(call.args)
    } catch {
      return inert({ code: 'COMPONENT_INVALID_PART', message: `The ${call.name} call's arguments are not JSON.` }, undefined)
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return inert({ code: 'COMPONENT_INVALID_PART', message: `The ${call.name} call's arguments are not an object.` }, undefined)
    const { component, props, instanceId, fallback } = args as Record<string, unknown>
    if (typeof component !== 'string' || registry.get(component) === undefined) {
      return inert({ code: 'COMPONENT_UNKNOWN', message: `No component ${JSON.stringify(component)} is registered.` }, fallback)
    }
    const id = typeof instanceId === 'string' && INSTANCE_ID.test(instanceId) ? instanceId : `agent-${call.id}`.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 128)
    try {
      const part = registry.render(component as never, props as never, { instanceId: id })
      return componentChunk(Object.freeze({ ...part, provenance: 'agent' }))
    } catch (error) {
      // render throws a ComponentError carrying its diagnostic (read structurally: no import cycle)
      const diagnostic = (error as { diagnostic?: ComponentDiagnostic } | null)?.diagnostic
      if (diagnostic !== undefined) return inert(diagnostic, fallback)
      return inert({ code: 'COMPONENT_INVALID_PROPS', message: error instanceof Error ? error.message : String(error) }, fallback)
    }
  }
  return Object.freeze({
    name,
    description: options.description ?? `Show the user a component instead of (or beside) text: one of ${keys.join(', ')}.`,
    schema,
    [COMPONENT_TOOL]: toChunk,
  })
}
