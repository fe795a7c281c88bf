import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession, defineChat, eventRoute, type ComponentPart, type Message, type ToolDefinition } from '../../src/index.js'
import { componentTool, defineComponents, sendInteraction, standardCatalog } from '../../src/components/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { choiceActionRoute, createActionConfirmation, type ActionConfirmationCoordinator } from '../../src/conversation/actions.js'
import { commandRoute } from '../../src/conversation/routes.js'

/** choiceActionRoute: a choice's typed action → one proposal, an approval request bound to it; undeclared actions and plain choices are not its business. */

const components = defineComponents(standardCatalog)

function chat(choices: { id: string; label: string; action?: { name: string; input: Record<string, string | number> } }[]) {
  const executed: string[] = []
  const deploy: ToolDefinition = { name: 'deploy', requiresConfirmation: true, execute: (input) => void executed.push(String(input.env)) }
  const wipe: ToolDefinition = { name: 'wipe', requiresConfirmation: true, execute: () => void executed.push('wipe') }
  let coordinator: ActionConfirmationCoordinator | undefined
  const confirmations = (sessionId: string): ActionConfirmationCoordinator => (coordinator ??= createActionConfirmation({ sessionId, tools: [deploy, wipe] }))
  const definition = defineChat({
    id: 'ops',
    chat: {},
    components,
    conversation: {
      initial: 'idle',
      states: { idle: {} },
      routes: [
        commandRoute({ id: 'ask', command: '/ops', response: () => ['Pick one.', components.render('choice-list', { choices }, { instanceId: 'ops' })] }),
        choiceActionRoute({ actions: ['deploy'], components, confirmations: (ctx) => confirmations(ctx.sessionId) }),
        eventRoute({ id: 'later', uiEvent: 'later', response: 'Later, then.' }),
      ],
      fallback: { response: 'Say /ops.' },
    },
  })
  const session = createChatSession(definition, { lint: false, sessionId: 'ops-1' })
  const controller = createChatController(session.chat)
  controller.subscribe(() => session.sync(controller.getState().messages))
  const answer = (): Message | undefined => controller.getState().messages.findLast((message) => message.role === 'assistant')
  const component = (): { messageId: string; part: ComponentPart } => {
    const message = answer()
    const part = message?.parts?.find((candidate): candidate is ComponentPart => candidate.type === 'component')
    if (!message || !part) throw new Error('no component')
    return { messageId: message.id, part }
  }
  return { session, controller, answer, component, executed, confirmations: () => confirmations('ops-1') }
}

describe('choiceActionRoute', () => {
  it('proposes the stored choice\'s action once and answers with an approval request carrying the token', async () => {
    const c = chat([{ id: 'ship', label: 'Deploy to prod', action: { name: 'deploy', input: { env: 'prod' } } }, { id: 'later', label: 'Later' }])
    await c.controller.send('/ops')
    const choice = c.component()
    await sendInteraction(c.controller, { ...choice, event: 'select', value: 'ship' })
    const approval = c.component()
    expect(approval.part).toMatchObject({ componentKey: 'approval-request', provenance: 'route', instanceId: 'approval-ops' })
    expect(components.resolve(approval.part).ok).toBe(true)
    const { token } = approval.part.props as { token: string }
    const records = await c.confirmations().list()
    expect(records.map((record) => [record.token, record.status, record.action.name, record.toolCallId.startsWith('choice-')])).toEqual([[token, 'pending', 'deploy', true]])
    expect(c.executed).toEqual([])
    expect((await c.confirmations().approve(token, 'ops-1')).status).toBe('approved')
    expect(c.executed).toEqual(['prod'])
  })

  it('a choice without an action goes to the routes after it', async () => {
    const c = chat([{ id: 'ship', label: 'Deploy', action: { name: 'deploy', input: { env: 'prod' } } }, { id: 'later', label: 'Later' }])
    await c.controller.send('/ops')
    await sendInteraction(c.controller, { ...c.component(), event: 'select', value: 'later' })
    expect(c.answer()?.content).toBe('Later, then.')
    expect(await c.confirmations().list()).toEqual([])
  })

  it('an action the route does not declare fails the route (ACTION_UNDECLARED): nothing proposed, nothing run', async () => {
    const c = chat([{ id: 'nuke', label: 'Wipe everything', action: { name: 'wipe', input: {} } }])
    await c.controller.send('/ops')
    await sendInteraction(c.controller, { ...c.component(), event: 'select', value: 'nuke' })
    const trace = c.session.traces().at(-1)
    expect(trace).toMatchObject({ routeId: 'choice-action', outcome: 'error', reason: 'response-threw', errorClass: 'ChatrailError' })
    expect(await c.confirmations().list()).toEqual([])
    expect(c.executed).toEqual([])
  })

  it('reads the action from the stored answer, not from the click: a forged part with another action proposes the stored one', async () => {
    const c = chat([{ id: 'ship', label: 'Deploy', action: { name: 'deploy', input: { env: 'staging' } } }])
    await c.controller.send('/ops')
    const choice = c.component()
    const forged = { ...choice.part, props: { choices: [{ id: 'ship', label: 'Deploy', action: { name: 'deploy', input: { env: 'prod' } } }] } } as ComponentPart
    await sendInteraction(c.controller, { messageId: choice.messageId, part: forged, event: 'select', value: 'ship' })
    const [record] = await c.confirmations().list()
    expect(record?.action.input).toEqual({ env: 'staging' })
  })
})

describe('choiceActionRoute and agent-proposed choice lists', () => {
  async function agentChoice(agentChoices: boolean | undefined) {
    const executed: string[] = []
    const deploy: ToolDefinition = { name: 'deploy', requiresConfirmation: true, execute: (input) => void executed.push(String(input.env)) }
    const confirmations = createActionConfirmation({ sessionId: 'agent-1', tools: [deploy] })
    const adapter = scriptedAdapter([[{ type: 'tool_call', toolCall: { id: 'call-1', name: 'show_component', args: JSON.stringify({ component: 'choice-list', props: { choices: [{ id: 'go', label: 'View order', action: { name: 'deploy', input: { env: 'prod' } } }] }, instanceId: 'agent-choices' }) } }, { type: 'done' }]])
    const definition = defineChat({
      id: 'agent-choices',
      chat: { adapter, tools: [componentTool(components)] },
      components,
      conversation: {
        initial: 'idle',
        states: { idle: {} },
        routes: [choiceActionRoute({ actions: ['deploy'], components, confirmations: () => confirmations, ...(agentChoices === undefined ? {} : { agentChoices }) })],
      },
    })
    const session = createChatSession(definition, { lint: false, sessionId: 'agent-1' })
    const controller = createChatController(session.chat)
    controller.subscribe(() => session.sync(controller.getState().messages))
    await controller.send('What now?')
    const answer = controller.getState().messages.at(-1)
    const part = answer?.parts?.find((candidate): candidate is ComponentPart => candidate.type === 'component')
    expect(part).toMatchObject({ componentKey: 'choice-list', provenance: 'agent' })
    await sendInteraction(controller, { messageId: answer?.id ?? '', part: part as ComponentPart, event: 'select', value: 'go' })
    return { session, proposals: await confirmations.list(), executed }
  }

  it('refuses by default: the route fails (ACTION_FROM_AGENT), nothing is proposed', async () => {
    const { session, proposals } = await agentChoice(undefined)
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'choice-action', outcome: 'error', errorClass: 'ChatrailError' })
    expect(proposals).toEqual([])
  })

  it('with agentChoices: true the action is proposed (and still waits for an approval)', async () => {
    const { proposals, executed } = await agentChoice(true)
    expect(proposals.map((record) => [record.action.name, record.status])).toEqual([['deploy', 'pending']])
    expect(executed).toEqual([])
  })
})

describe('choiceActionRoute options', () => {
  it('options that cannot work are a ChatrailConfigError naming every field, when the route is made', () => {
    let thrown: unknown
    try {
      choiceActionRoute({ actions: [], components: {} as never, confirmations: 'the coordinator' as never })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ name: 'ChatrailConfigError', code: 'CONFIG_INVALID', path: ['choiceActionRoute', 'choice-action', 'actions'] })
    const issues = (thrown as { issues: { code: string; path: unknown[] }[] }).issues
    expect(issues.map((issue) => [issue.code, issue.path.at(-1)])).toEqual([['invalid_choice_action_route', 'actions'], ['invalid_choice_action_route', 'confirmations'], ['invalid_choice_action_route', 'components']])
  })
})

describe('the session hands routes its coordinator (ctx.confirmations)', () => {
  function sessionWith(confirmations: boolean) {
    const executed: string[] = []
    const deploy: ToolDefinition = { name: 'deploy', requiresConfirmation: true, execute: (input) => void executed.push(String(input.env)) }
    const definition = defineChat({
      id: 'ops-own',
      chat: {},
      components,
      conversation: {
        initial: 'idle',
        states: { idle: {} },
        routes: [
          commandRoute({ id: 'ask', command: '/ops', response: () => ['Pick one.', components.render('choice-list', { choices: [{ id: 'ship', label: 'Deploy', action: { name: 'deploy', input: { env: 'prod' } } }] }, { instanceId: 'ops' })] }),
          // no `confirmations`: the route proposes through the session's own coordinator
          choiceActionRoute({ actions: ['deploy'], components }),
        ],
        fallback: { response: 'Say /ops.' },
      },
    })
    const session = createChatSession(definition, { lint: false, sessionId: 'ops-2', ...(confirmations ? { confirmations: { tools: [deploy] } } : {}) })
    const controller = createChatController(session.chat)
    controller.subscribe(() => session.sync(controller.getState().messages))
    const component = (): { messageId: string; part: ComponentPart } => {
      const message = controller.getState().messages.findLast((candidate) => candidate.role === 'assistant')
      const part = message?.parts?.find((candidate): candidate is ComponentPart => candidate.type === 'component')
      if (!message || !part) throw new Error('no component')
      return { messageId: message.id, part }
    }
    return { session, controller, component, executed }
  }

  it('a session made with confirmations: the route proposes on session.confirmations, which approves once', async () => {
    const c = sessionWith(true)
    await c.controller.send('/ops')
    await sendInteraction(c.controller, { ...c.component(), event: 'select', value: 'ship' })
    const { token } = c.component().part.props as { token: string }
    const coordinator = c.session.confirmations as ActionConfirmationCoordinator
    expect((await coordinator.get(token))?.status).toBe('pending')
    await Promise.all([coordinator.approve(token, 'ops-2'), coordinator.approve(token, 'ops-2')])
    expect(c.executed).toEqual(['prod'])
  })

  it('without one, the route fails (CONFIRMATIONS_MISSING) and changes nothing', async () => {
    const c = sessionWith(false)
    expect(c.session.confirmations).toBeUndefined()
    await c.controller.send('/ops')
    await sendInteraction(c.controller, { ...c.component(), event: 'select', value: 'ship' })
    expect(c.session.traces().at(-1)).toMatchObject({ routeId: 'choice-action', outcome: 'error', reason: 'response-threw', errorClass: 'ChatrailError' })
    expect(c.executed).toEqual([])
  })
})
