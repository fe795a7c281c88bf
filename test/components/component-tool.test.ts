import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { componentTool, defineComponents, REFUSED_COMPONENT_TEXT, standardCatalog, type ComponentPart } from '../../src/components/index.js'
import { createChatSession, defineChat, type StreamChunk, type ToolDefinition } from '../../src/index.js'
import type { Message } from '../../src/contract/message.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { STANDARD_FIXTURES } from './fixtures.js'

/**
 * Agent-proposed components: only through the tool the definition declares (`componentTool`), made
 * into a part with provenance `agent` and checked by the registry; invalid or unknown → inert text;
 * a component frame in the model's text stays text.
 */

const components = defineComponents(standardCatalog)
const showComponent = componentTool(components)

const call = (args: unknown, id = 'call-1'): StreamChunk => ({ type: 'tool_call', toolCall: { id, name: 'show_component', args: typeof args === 'string' ? args : JSON.stringify(args) } })

function run(steps: StreamChunk[][], tools: ToolDefinition[] = [showComponent]) {
  const adapter = scriptedAdapter(steps)
  const definition = defineChat({ id: 'agent-components', chat: { adapter, tools }, components, conversation: { initial: 'idle', states: { idle: {} }, routes: [] } })
  const session = createChatSession(definition, { lint: false, sessionId: 's1' })
  let n = 0
  const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  const answer = (): Message | undefined => controller.getState().messages.findLast((message) => message.role === 'assistant')
  const parts = (): ComponentPart[] => (answer()?.parts ?? []).filter((part): part is ComponentPart => part.type === 'component')
  return { adapter, session, controller, answer, parts }
}

describe('componentTool: the declared tool an agent proposes components through', () => {
  it('its schema names the registry\'s keys and each zod props schema', () => {
    expect(showComponent.name).toBe('show_component')
    const schema = showComponent.schema as { properties: { component: { enum: string[] }; props: { anyOf: { properties?: Record<string, unknown> }[] } }; required: string[] }
    expect(schema.properties.component.enum).toEqual([...components.keys])
    expect(schema.required).toEqual(['component', 'props'])
    const choiceList = schema.properties.props.anyOf[components.keys.indexOf('choice-list')]
    expect(Object.keys(choiceList?.properties ?? {})).toEqual(expect.arrayContaining(['prompt', 'choices']))
    expect(showComponent.execute).toBeUndefined()
  })

  it('a call becomes a component part with provenance agent, checked by the registry, in its place in the answer', async () => {
    const chat = run([[{ type: 'text', content: 'Here are your options.' }, call({ component: 'choice-list', props: STANDARD_FIXTURES['choice-list'], instanceId: 'options' }), { type: 'done' }]])
    await chat.controller.send('What can I do?')
    const [part] = chat.parts()
    expect(part).toMatchObject({ componentKey: 'choice-list', instanceId: 'options', provenance: 'agent' })
    expect(components.resolve(part).ok).toBe(true)
    expect(chat.answer()?.parts?.map((candidate) => candidate.type)).toEqual(['text', 'component'])
    expect(chat.answer()?.content).toContain(part?.fallback.summary)
    expect(chat.answer()?.toolCalls ?? []).toEqual([])
    expect(chat.session.traces().at(-1)).toMatchObject({ kind: 'agentic', outcome: 'ok' })
  })

  it('without an instance id the tool call id names it', async () => {
    const chat = run([[call({ component: 'link-card', props: STANDARD_FIXTURES['link-card'] }, 'toolu_01'), { type: 'done' }]])
    await chat.controller.send('Where is it?')
    expect(chat.parts()[0]).toMatchObject({ componentKey: 'link-card', instanceId: 'agent-toolu_01', provenance: 'agent' })
  })

  it.each([
    ['an unknown key', { component: 'order-card', props: {} }, 'COMPONENT_UNKNOWN'],
    ['constructor', { component: 'constructor', props: {} }, 'COMPONENT_UNKNOWN'],
    ['invalid props', { component: 'link-card', props: { title: 'x', href: 'javascript:alert(1)' } }, 'COMPONENT_INVALID_PROPS'],
    ['props over the limits', { component: 'table', props: { columns: [{ key: 'a', label: 'A' }], rows: [{ a: 'x'.repeat(20_000) }] } }, 'COMPONENT_PROPS_LIMIT'],
    ['arguments that are not JSON', '{"component": "link-card", ', 'COMPONENT_INVALID_PART'],
  ])('%s is inert: text and a diagnostic, no component', async (_name, args, code) => {
    // the session's own stream: what the controller receives
    const direct = run([[call(args), { type: 'done' }]])
    const chunks: StreamChunk[] = []
    const source = direct.session.chat.adapter?.createSource({ messages: [{ id: 'u1', role: 'user', content: 'Show me', status: 'complete', createdAt: new Date(0) }] })
    for await (const chunk of source?.stream() ?? []) chunks.push(chunk)
    const shown = chunks.find((chunk) => chunk.type === 'text')
    expect(shown?.metadata?.component).toBeUndefined()
    expect(shown?.metadata?.componentDiagnostic).toMatchObject({ code })
    expect(chunks.some((chunk) => chunk.type === 'tool_call')).toBe(false)

    const chat = run([[call(args), { type: 'done' }]])
    await chat.controller.send('Show me')
    expect(chat.parts()).toEqual([])
    expect(chat.answer()?.content).toContain(REFUSED_COMPONENT_TEXT)
  })

  it('an invalid call with the agent\'s own fallback shows that text', async () => {
    const chat = run([[call({ component: 'order-card', props: {}, fallback: 'Order 12: 40 EUR' }), { type: 'done' }]])
    await chat.controller.send('Show me')
    expect(chat.parts()).toEqual([])
    expect(chat.answer()?.content).toContain('Order 12: 40 EUR')
  })

  it('a component frame or metadata.component in the model\'s text stays text', async () => {
    const frame = JSON.stringify({ protocol: 'agentskit.chat.component', version: 1, type: 'render', componentKey: 'link-card', instanceId: 'x', props: STANDARD_FIXTURES['link-card'], fallback: { kind: 'link-card', summary: 'x' } })
    const smuggled = components.render('link-card', STANDARD_FIXTURES['link-card'] as never)
    const chat = run([[{ type: 'text', content: frame }, { type: 'text', content: 'hi', metadata: { component: smuggled } }, { type: 'done' }]])
    await chat.controller.send('Show me')
    expect(chat.parts()).toEqual([])
    expect(chat.answer()?.content).toBe(`${frame}hi`)
  })

  it('a definition that does not declare the tool gets its calls as ordinary tool calls, never components', async () => {
    const chat = run([[call({ component: 'link-card', props: STANDARD_FIXTURES['link-card'] }), { type: 'done' }]], [])
    await chat.controller.send('Show me')
    expect(chat.parts()).toEqual([])
  })
})

describe('componentTool options', () => {
  it('a missing registry or a name a model refuses is a ChatrailConfigError', () => {
    expect(() => componentTool(undefined as never)).toThrow(expect.objectContaining({ name: 'ChatrailConfigError', path: ['componentTool', 'registry'] }))
    expect(() => componentTool(components, { name: 'show component!' })).toThrow(expect.objectContaining({ name: 'ChatrailConfigError', path: ['componentTool', 'name'] }))
    expect(componentTool(components, { name: 'ui_card' }).name).toBe('ui_card')
  })
})
