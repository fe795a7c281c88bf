import type { AgentSnapshot } from '../../../src/contract/agent-snapshot.js'
import type { DialogAnswerInput } from '../../../src/contract/dialog.js'
import type { LiveAgentAdapter } from '../../../src/contract/live-agent-adapter.js'
import type { StreamChunk } from '../../../src/contract/stream.js'

// Agents for the control tests: one that streams until aborted (stop), one that opens a plan
// dialog mid-turn and waits for its answer (a live agent, as Claude Code is), one that calls a tool.

/** Streams a word every `everyMs` until aborted; counts aborts. */
export function endlessAgent(everyMs = 20): { adapter: { createSource: () => { stream: () => AsyncIterableIterator<StreamChunk>; abort: () => void } }; aborts: () => number; started: () => number } {
  let aborts = 0
  let started = 0
  return {
    aborts: () => aborts,
    started: () => started,
    adapter: {
      createSource: () => {
        let aborted = false
        return {
          abort: () => {
            aborted = true
            aborts++
          },
          async *stream() {
            started++
            for (let n = 0; !aborted; n++) {
              yield { type: 'text', content: n === 0 ? 'word' : ' word' }
              await new Promise((resolve) => setTimeout(resolve, everyMs))
            }
          },
        }
      },
    },
  }
}

/** A live agent that asks to approve a plan, then says whether it was approved. */
export function planAgent(): { adapter: LiveAgentAdapter; answers: DialogAnswerInput[]; pending: () => boolean } {
  const answers: DialogAnswerInput[] = []
  const listeners = new Set<() => void>()
  let snapshot: AgentSnapshot | undefined
  let answered: ((answer: DialogAnswerInput) => void) | undefined
  const set = (next: AgentSnapshot | undefined): void => {
    snapshot = next
    for (const listener of listeners) listener()
  }
  const adapter: LiveAgentAdapter = {
    agentRunState: {
      getSnapshot: () => snapshot,
      subscribe: (listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      answerDialog: async (toolId, answer) => {
        if (snapshot?.pendingDialog?.toolId !== toolId) throw new Error('no such dialog')
        answers.push(answer)
        answered?.(answer)
        return { delivered: 'live' }
      },
    },
    createSource: () => ({
      abort: () => undefined,
      async *stream() {
        yield { type: 'text', content: 'Here is my plan.' }
        const answer = new Promise<DialogAnswerInput>((resolve) => (answered = resolve))
        set({ agent: 'claude-code', state: 'needs_input', status: 'waiting_for_approval', pendingDialog: { toolId: 'plan-1', kind: 'plan', prompt: 'Ship it?', options: [], multiSelect: false, answerable: true } })
        const got = await answer
        set({ agent: 'claude-code', state: 'working', status: 'running' })
        yield { type: 'text', content: got.kind === 'plan' && got.approved ? ' Approved.' : ' Rejected.' }
        yield { type: 'done' }
      },
    }),
  }
  return { adapter, answers, pending: () => snapshot?.pendingDialog !== undefined }
}

/** An agent that reports one tool call and its result, then answers. */
export const toolAgent = {
  createSource: () => ({
    abort: () => undefined,
    async *stream(): AsyncIterableIterator<StreamChunk> {
      yield { type: 'text', content: 'Looking it up.' }
      yield { type: 'tool_call', toolCall: { id: 'call-1', name: 'lookup_order', args: '{"orderId":"A-7"}' } }
      yield { type: 'tool_result', toolCall: { id: 'call-1', name: 'lookup_order', args: '{"orderId":"A-7"}', result: '{"status":"shipped"}' } }
      yield { type: 'text', content: 'It shipped.' }
      yield { type: 'done' }
    },
  }),
}
