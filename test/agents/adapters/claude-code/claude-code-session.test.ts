import { afterEach, describe, expect, it } from 'vitest'
import { createChatController } from '../../../../src/controller/index.js'
import { commandRoute, createChatSession, defineChat } from '../../../../src/index.js'
import type { AgentSnapshot } from '../../../../src/contract/agent-snapshot.js'
import { startClaudeRig } from '../support/claude-harness.js'
import type { ClaudeRig } from '../support/claude-harness.js'
import { waitForSnapshot } from '../support/harness.js'

/**
 * A chat session whose agentic adapter is claudeCodeAdapter: deterministic routes never start the
 * CLI; other messages run a real Claude Code turn, and `session.getSnapshot().agent` follows the
 * agent's run state live, read from its transcript while the turn runs.
 */

let rig: ClaudeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

function chatFor(currentRig: ClaudeRig): { session: ReturnType<typeof createChatSession>; controller: ReturnType<typeof createChatController>; agentStates: AgentSnapshot[] } {
  const session = createChatSession(
    defineChat({
      id: 'claude-session',
      chat: { adapter: currentRig.adapter },
      conversation: {
        initial: 'chatting',
        states: { chatting: { on: { help: 'chatting' } } },
        routes: [commandRoute({ id: 'help', command: '/help', event: 'help', response: 'Ask me anything about the code.' })],
      },
    }),
  )
  const controller = createChatController(session.chat)
  controller.subscribe(() => session.sync(controller.getState().messages))
  const agentStates: AgentSnapshot[] = []
  session.subscribe(() => {
    const agent = session.getSnapshot().agent
    if (agent && agent !== agentStates.at(-1)) agentStates.push(agent)
  })
  return { session, controller, agentStates }
}

describe('a session with claudeCodeAdapter (real CLI)', () => {
  it('shows the agent run state changing during a turn, read from the transcript; routes never start the CLI', async () => {
    rig = await startClaudeRig(
      [
        { content: [{ type: 'text', text: 'Running it.' }, { type: 'tool_use', name: 'Bash', input: { command: 'sleep 1.5 && echo slept', description: 'Sleep' } }] },
        { content: [{ type: 'text', text: 'Slept well.' }] },
      ],
      { allowedTools: ['Bash'] },
    )
    const { session, controller, agentStates } = chatFor(rig)

    await controller.send('/help')
    expect(controller.getState().messages.at(-1)?.content).toBe('Ask me anything about the code.')
    expect(rig.server.requests).toHaveLength(0)
    expect(session.getSnapshot().agent).toBeUndefined()

    await controller.send('Please sleep a bit')
    const states = agentStates.map((agent) => `${agent.state}/${agent.status}${agent.detail ? ` (${agent.detail})` : ''}`)
    // Working first, the transcript's own detail while Bash ran, completed at the end.
    expect(states[0]).toBe('working/running')
    expect(states).toContain('working/running (running Bash)')
    expect(states.at(-1)).toBe('needs_input/completed')

    const reply = controller.getState().messages.at(-1)
    expect(reply?.content).toBe('Running it.\n\nSlept well.')
    // The tool call came with its result: recorded complete, and no tool-loop follow-up turn.
    expect(reply?.toolCalls).toEqual([expect.objectContaining({ name: 'Bash', status: 'complete', result: 'slept' })])
    expect(rig.server.requests.filter((request) => !request.side)).toHaveLength(2)
    expect(session.traces().map((trace) => trace.kind)).toEqual(['deterministic', 'agentic'])
  }, 90_000)

  it('session.answerDialog answers the pending AskUserQuestion of the running turn', async () => {
    rig = await startClaudeRig([
      { content: [{ type: 'tool_use', name: 'AskUserQuestion', input: { questions: [{ question: 'Tabs or spaces?', header: 'Indent', multiSelect: false, options: [{ label: 'Tabs', description: 't' }, { label: 'Spaces', description: 's' }] }] } }] },
      { content: [{ type: 'text', text: 'Spaces, then.' }] },
    ])
    const { session, controller } = chatFor(rig)
    const sending = controller.send('Format the file')
    const asking = await waitForSnapshot(rig.adapter.agentRunState, (snapshot) => snapshot.pendingDialog !== undefined)
    expect(session.getSnapshot().agent?.pendingDialog?.prompt).toBe('Tabs or spaces?')
    await expect(session.answerDialog('not-this-one', { kind: 'question', answers: [] })).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG' })
    const result = await session.answerDialog(asking.pendingDialog?.toolId ?? '', { kind: 'question', answers: [{ question: 'Tabs or spaces?', chosen: ['Spaces'] }] })
    expect(result).toEqual({ delivered: 'live' })
    await sending
    expect(controller.getState().messages.at(-1)?.content).toBe('Spaces, then.')
    expect(session.getSnapshot().agent?.pendingDialog).toBeUndefined()
  }, 90_000)
})
