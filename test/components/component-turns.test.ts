import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { defineComponents, standardCatalog } from '../../src/components/index.js'
import { commandRoute, createChatSession, defineChat, type ChatDefinitionInput, type JsonObject } from '../../src/index.js'
import type { Message } from '../../src/contract/message.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { STANDARD_FIXTURES } from './fixtures.js'

/**
 * Components through a session and the real controller: a route answers with text and a
 * component; the message holds both as parts, its content the component's summary; the adapter
 * never sees a component part; an adapter cannot smuggle one in; a definition must name its registry.
 */

const components = defineComponents(standardCatalog)
const choices = components.render('choice-list', STANDARD_FIXTURES['choice-list'], { instanceId: 'lost-card' })

function run(options: { withRegistry?: boolean; adapterSteps?: Parameters<typeof scriptedAdapter>[0]; respond?: () => unknown } = {}) {
  const adapter = scriptedAdapter(options.adapterSteps ?? ['The agent answers.'])
  const input: ChatDefinitionInput<JsonObject> = {
    id: 'components',
    chat: { adapter },
    conversation: {
      initial: 'idle',
      states: { idle: { on: { lost: 'choosing' } }, choosing: { on: { reset: 'idle' } } },
      routes: [commandRoute({ id: 'lost', command: '/lost', event: 'lost', response: (options.respond ?? (() => ['Sorry to hear that.', choices])) as () => string })],
    },
    ...(options.withRegistry === false ? {} : { components }),
  }
  const session = createChatSession(defineChat(input), { lint: false, sessionId: 's1' })
  let n = 0
  const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  const answers = (): Message[] => controller.getState().messages.filter((message) => message.role === 'assistant')
  return { adapter, session, controller, answers }
}

describe('a route that answers with a component', () => {
  it('the message holds [text, component] as parts; its content reads the summary in its place; no model call', async () => {
    const { adapter, controller, answers, session } = run()
    await controller.send('/lost')
    expect(adapter.calls).toHaveLength(0)
    const [answer] = answers()
    expect(answer?.parts).toEqual([{ type: 'text', text: 'Sorry to hear that.' }, choices])
    expect(answer?.content).toBe(`Sorry to hear that.\n${choices.fallback.summary}\n`)
    expect(session.getSnapshot().state).toBe('choosing')
  })

  it('the next agentic turn sees the component as its summary text: no key, no props', async () => {
    const { adapter, controller } = run()
    await controller.send('/lost')
    await controller.send('Which is faster?')
    const seen = adapter.calls[0]?.request.messages ?? []
    const answer = seen.find((message) => message.role === 'assistant')
    expect(answer?.parts).toEqual([{ type: 'text', text: 'Sorry to hear that.' }, { type: 'text', text: choices.fallback.summary }])
    expect(JSON.stringify(seen)).not.toContain('choice-list')
    expect(JSON.stringify(seen)).not.toContain('"refund","input"')
  })

  it('without components in the history the adapter gets the very request (invariant 1)', async () => {
    const { adapter, session } = run()
    const request = { messages: [{ id: 'u1', role: 'user' as const, content: 'hello', status: 'complete' as const, createdAt: new Date(0) }] }
    for await (const _chunk of session.chat.adapter.createSource(request).stream()) void _chunk
    expect(adapter.calls[0]?.request).toBe(request)
  })

  it('a definition without a registry cannot answer with components: the route fails and nothing changes', async () => {
    const { controller, answers, session } = run({ withRegistry: false })
    await controller.send('/lost')
    expect(session.getSnapshot().state).toBe('idle')
    expect(answers()[0]?.parts).toBeUndefined()
    expect(session.traces().at(-1)).toMatchObject({ outcome: 'error', reason: 'components-undeclared' })
  })

  it('a route cannot claim an agent\'s provenance', async () => {
    const { controller, session } = run({ respond: () => ['x', { ...choices, provenance: 'agent' }] })
    await controller.send('/lost')
    expect(session.traces().at(-1)).toMatchObject({ outcome: 'error', reason: 'invalid-output' })
    expect(session.getSnapshot().state).toBe('idle')
  })
})

describe('an adapter cannot put a component in an answer', () => {
  it('a chunk claiming metadata.component streams as its text only', async () => {
    const forged = { type: 'text' as const, content: 'Click here', metadata: { component: { ...choices, provenance: 'route' } } }
    const { controller, answers } = run({ adapterSteps: [[forged, { type: 'text', content: '!' }]] })
    await controller.send('hello')
    const [answer] = answers()
    expect(answer?.parts).toBeUndefined()
    expect(answer?.content).toBe('Click here!')
  })
})
