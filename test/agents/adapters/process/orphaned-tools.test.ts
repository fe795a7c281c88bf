import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AgentChat, AgentMessage, AgentToolStatus } from '../../../../src/contract/agent-chat.js'
import { createLiveRunState } from '../../../../src/agents/process/live-run-state.js'
import { ORPHANED_TOOL_OUTPUT, settleOrphanedTools } from '../../../../src/agents/process/orphaned-tools.js'

/**
 * Codex 0.171 may write the record of a background command's end after the adapter's last read,
 * or not at all ("failed to record rollout items: thread … not found" on stderr as it exits; 2 of 8
 * runs of codex-long-command showed the command running after the exit), so its rollout can show
 * the command running forever. Its process is gone, and with it the command: the live state must
 * not say running.
 */

const toolMessage = (seq: number, id: string, status: AgentToolStatus): AgentMessage => ({ seq, kind: 'tool', tool: { id, name: 'exec_command', input: {}, status } })

function chat(offset: number, messages: AgentMessage[]): AgentChat {
  return { agent: 'codex', state: 'needs_input', status: 'completed', messages, cursor: { offset, lines: offset }, warnings: [] }
}

function liveWith(toolsEndWithProcess: boolean, reads: () => AgentChat) {
  return createLiveRunState({ agent: 'codex', pollMs: 5, toolsEndWithProcess, openReader: () => ({ read: async () => reads() }) })
}

describe('tools that end with the process', () => {
  it('a tool still running in the transcript after the exit is shown ended, result unknown, in this and later reads', async () => {
    let transcript = chat(10, [toolMessage(1, 'sleep', 'running')])
    const live = liveWith(true, () => transcript)
    live.turnStarted()
    live.runKnown('thread-1')
    await live.turnEnded({ kind: 'completed' })
    expect(live.lastChat()?.messages[0]?.tool).toMatchObject({ id: 'sleep', status: 'error', output: ORPHANED_TOOL_OUTPUT })

    // The next turn on the same thread: the rollout still has no end for it; a new tool runs.
    transcript = chat(20, [toolMessage(1, 'sleep', 'running'), toolMessage(2, 'ls', 'running')])
    live.turnStarted()
    await live.turnEnded({ kind: 'completed' })
    const tools = live.lastChat()?.messages.map((message) => [message.tool?.id, message.tool?.status])
    expect(tools).toEqual([['sleep', 'error'], ['ls', 'error']])
  })

  it('a tool the transcript ended keeps its own result; adapters whose tools outlive the process keep running', async () => {
    const live = liveWith(true, () => chat(10, [toolMessage(1, 'done', 'ok')]))
    live.turnStarted()
    live.runKnown('thread-1')
    await live.turnEnded({ kind: 'completed' })
    expect(live.lastChat()?.messages[0]?.tool?.status).toBe('ok')

    const other = liveWith(false, () => chat(10, [toolMessage(1, 'sleep', 'running')]))
    other.turnStarted()
    other.runKnown('thread-1')
    await other.turnEnded({ kind: 'completed' })
    expect(other.lastChat()?.messages[0]?.tool?.status).toBe('running')
  })

  it('settleOrphanedTools ends exactly the running tools it names and returns the same chat when none', () => {
    const statuses = fc.constantFrom<AgentToolStatus>('running', 'ok', 'error')
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), statuses), { maxLength: 8 }), fc.subarray(['a', 'b', 'c', 'd']), (tools, named) => {
        const before = chat(1, tools.map(([id, status], index) => toolMessage(index + 1, id, status)))
        const after = settleOrphanedTools(before, new Set(named))
        after.messages.forEach((message, index) => {
          const was = before.messages[index]?.tool
          const expected = was?.status === 'running' && named.includes(was.id) ? 'error' : was?.status
          expect(message.tool?.status).toBe(expected)
        })
        const touched = tools.some(([id, status]) => status === 'running' && named.includes(id))
        expect(after === before).toBe(!touched)
      }),
    )
  })
})
