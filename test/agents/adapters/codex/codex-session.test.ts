import { afterEach, describe, expect, it } from 'vitest'
import { createChatController } from '../../../../src/controller/index.js'
import { commandRoute, createChatSession, defineChat } from '../../../../src/index.js'
import type { AgentSnapshot } from '../../../../src/contract/agent-snapshot.js'
import { run, say } from '../../../support/openai-server.js'
import { startCodexRig } from '../support/codex-harness.js'
import type { CodexRig } from '../support/codex-harness.js'
import { waitUntil } from '../support/harness.js'

/**
 * A chat session whose agentic adapter is codexAdapter: `session.getSnapshot().agent` follows the
 * thread's run state live, read from its rollout (found by thread id) while the turn runs.
 */

let rig: CodexRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('a session with codexAdapter (real CLI)', () => {
  it('shows the agent run state changing during a turn, read from the rollout; the tool call needs no follow-up turn', async () => {
    rig = await startCodexRig([{ type: 'respond', items: [say('Running it.'), run('sleep 1.5 && echo slept')], gapMs: 300 }, { type: 'respond', items: [say('Slept well.')] }])
    const currentRig = rig
    const session = createChatSession(
      defineChat({
        id: 'codex-session',
        chat: { adapter: currentRig.adapter },
        conversation: {
          initial: 'chatting',
          states: { chatting: { on: { status: 'chatting' } } },
          routes: [commandRoute({ id: 'status', command: '/status', event: 'status', response: () => `Agent: ${currentRig.adapter.agentRunState.getSnapshot()?.status ?? 'not started'}` })],
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

    await controller.send('/status')
    expect(controller.getState().messages.at(-1)?.content).toBe('Agent: not started')

    const sending = controller.send('Please sleep a bit')
    // Mid-turn: the rollout has been located by thread id and read while the command sleeps.
    await waitUntil(() => currentRig.adapter.agentChat()?.messages.some((message) => message.tool?.status === 'running') === true, 20_000, 'a running tool in the rollout')
    expect(session.getSnapshot().agent).toMatchObject({ agent: 'codex', state: 'working', status: 'running' })
    await sending

    expect(agentStates[0]).toMatchObject({ state: 'working', status: 'running' })
    expect(agentStates.at(-1)).toMatchObject({ state: 'needs_input', status: 'completed' })
    const reply = controller.getState().messages.at(-1)
    expect(reply?.content).toBe('Running it.\n\nSlept well.')
    expect(reply?.toolCalls).toEqual([expect.objectContaining({ name: 'command_execution', status: 'complete' })])
    expect(rig.server.requests).toHaveLength(2)

    await controller.send('/status')
    expect(controller.getState().messages.at(-1)?.content).toBe('Agent: completed')
  }, 90_000)
})
