import { createAnthropic } from '@ai-sdk/anthropic'
import { afterEach, describe, expect, it } from 'vitest'
import { aiSdkAdapter } from '../../src/ai-sdk/index.js'
import { componentTool, defineComponents, standardCatalog, type ComponentPart } from '../../src/components/index.js'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession, defineChat } from '../../src/index.js'
import { startAnthropicServer } from '../support/anthropic-server.js'
import { STANDARD_FIXTURES } from './fixtures.js'

/**
 * An agent-proposed component through a real AI SDK provider: aiSdkAdapter → @ai-sdk/anthropic →
 * the scripted Anthropic Messages server on 127.0.0.1. The model reads the declared tool's schema
 * (the registry's keys) and calls it; the session makes the call a component part with provenance
 * `agent`, and the tool is never run (no second request for its result).
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

describe('agent-proposed components through a real provider', () => {
  it('the model calls show_component: the answer holds the component (provenance agent); an invalid call stays inert', async () => {
    const model = await startAnthropicServer({
      turns: [
        { content: [{ type: 'text', text: 'Here is the tracking page.' }, { type: 'tool_use', id: 'toolu_01', name: 'show_component', input: { component: 'link-card', props: STANDARD_FIXTURES['link-card'] } }] },
        { content: [{ type: 'text', text: 'Try this.' }, { type: 'tool_use', id: 'toolu_02', name: 'show_component', input: { component: 'link-card', props: { title: 'x', href: 'javascript:alert(1)' } } }] },
      ],
    })
    closers.push(model.close)
    const components = defineComponents(standardCatalog)
    const definition = defineChat({
      id: 'agent-components',
      components,
      chat: { adapter: aiSdkAdapter({ model: createAnthropic({ baseURL: `${model.url}/v1`, apiKey: 'scripted-key' })('claude-sonnet-4-5'), maxRetries: 0 }), tools: [componentTool(components)] },
      conversation: { initial: 'open', states: { open: {} }, routes: [] },
    })
    const session = createChatSession(definition, { lint: false, sessionId: 'p1' })
    const controller = createChatController(session.chat)
    controller.subscribe(() => session.sync(controller.getState().messages))

    await controller.send('Where is my parcel?')
    const answer = controller.getState().messages.at(-1)
    const part = answer?.parts?.find((candidate): candidate is ComponentPart => candidate.type === 'component')
    expect(part).toMatchObject({ componentKey: 'link-card', provenance: 'agent', instanceId: 'agent-toolu_01', props: STANDARD_FIXTURES['link-card'] })
    expect(answer?.content).toContain('Here is the tracking page.')
    const main = model.requests.filter((request) => !request.side)
    expect(main).toHaveLength(1)
    const tools = main[0]?.body.tools as Array<{ name: string; input_schema: { properties: { component: { enum: string[] } } } }>
    expect(tools.map((tool) => tool.name)).toEqual(['show_component'])
    expect(tools[0]?.input_schema.properties.component.enum).toContain('link-card')

    await controller.send('Another one?')
    const second = controller.getState().messages.at(-1)
    expect(second?.parts?.some((candidate) => candidate.type === 'component') ?? false).toBe(false)
    expect(second?.content).toContain('Try this.')
    // the model's next request reads the first component as its fallback text, never its key or props
    const history = JSON.stringify(model.requests.filter((request) => !request.side)[1]?.body.messages)
    expect(history).toContain(part?.fallback.summary.split('\n')[0])
    expect(history).not.toContain('"componentKey"')
  })
})
