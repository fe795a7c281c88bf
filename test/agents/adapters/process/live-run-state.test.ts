import { describe, expect, it } from 'vitest'
import type { AgentChat } from '../../../../src/contract/agent-chat.js'
import type { AgentSnapshot } from '../../../../src/contract/agent-snapshot.js'
import { createLiveRunState } from '../../../../src/agents/process/live-run-state.js'

/** The scheduling and settling rules of the live run state, with a transcript reader whose answers the test sets. */

function chat(offset: number, fields: Partial<AgentChat>): AgentChat {
  return { agent: 'codex', state: 'working', status: 'running', messages: [], cursor: { offset, lines: offset }, warnings: [], ...fields }
}

/** Poll attempts (opens tried and reads) of the live state, so settling waits for polls, not for time. */
let attempts = 0

function setup() {
  let next: AgentChat | Error | undefined
  let opened = 0
  const live = createLiveRunState({
    agent: 'codex',
    pollMs: 5,
    openReader: () => {
      attempts += 1
      if (next === undefined) return undefined
      opened += 1
      return {
        read: async () => {
          attempts += 1
          return next instanceof Error ? Promise.reject(next) : (next as AgentChat)
        },
      }
    },
  })
  const seen: AgentSnapshot[] = []
  live.source.subscribe(() => seen.push(live.source.getSnapshot() as AgentSnapshot))
  return { live, seen, set: (value: AgentChat | Error | undefined) => (next = value), opened: () => opened }
}

/**
 * At least three poll attempts after now (so whatever was set has been read), however loaded the
 * machine; where polling has stopped (after a turn ended) it gives up after 2 s, which the
 * assertions that follow then judge.
 */
async function settle(): Promise<void> {
  const target = attempts + 3
  const deadline = Date.now() + 2000
  while (attempts < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('createLiveRunState', () => {
  it('is undefined before any turn, working as soon as a turn starts, then follows the transcript', async () => {
    const { live, seen, set } = setup()
    expect(live.source.getSnapshot()).toBeUndefined()
    live.turnStarted()
    expect(live.source.getSnapshot()).toEqual({ agent: 'codex', state: 'working', status: 'running' })
    set(chat(10, { state: 'working', status: 'running', detail: 'running Bash' }))
    live.runKnown('thread-1')
    await settle()
    expect(live.source.getSnapshot()).toEqual({ agent: 'codex', state: 'working', status: 'running', detail: 'running Bash' })
    set(chat(20, { state: 'needs_input', status: 'completed' }))
    await live.turnEnded({ kind: 'completed' })
    expect(seen.map((snapshot) => `${snapshot.state}/${snapshot.status}`)).toEqual(['working/running', 'working/running', 'needs_input/completed'])
  })

  it('notifies once per change: equal snapshots keep their identity', async () => {
    const { live, seen, set } = setup()
    set(chat(10, {}))
    live.runKnown('t')
    live.turnStarted()
    await settle()
    await settle()
    expect(seen).toHaveLength(1)
  })

  it('overrules a transcript that still says working once the process is gone (aborted, failed)', async () => {
    const { live, set } = setup()
    live.runKnown('t')
    live.turnStarted()
    set(chat(10, { state: 'working', status: 'running' }))
    await settle()
    await live.turnEnded({ kind: 'aborted' })
    expect(live.source.getSnapshot()).toEqual({ agent: 'codex', state: 'needs_input', status: 'stopped', detail: 'the turn was aborted' })
    live.turnStarted()
    set(chat(12, { state: 'working', status: 'running' }))
    live.turnFinishing({ kind: 'failed', detail: 'Codex turn failed: quota' })
    await live.turnEnded({ kind: 'aborted' })
    expect(live.source.getSnapshot()).toMatchObject({ status: 'failed', detail: 'Codex turn failed: quota' })
  })

  it('shows working while the transcript has not grown since the turn started, not the last turn\'s end', async () => {
    const { live, set } = setup()
    live.runKnown('t')
    live.turnStarted()
    set(chat(10, { state: 'needs_input', status: 'completed' }))
    await live.turnEnded({ kind: 'completed' })
    live.turnStarted()
    await settle()
    expect(live.source.getSnapshot()).toMatchObject({ state: 'working', status: 'running' })
    await live.turnEnded({ kind: 'aborted' })
    expect(live.source.getSnapshot()).toMatchObject({ status: 'stopped' })
  })

  it('lifts an unanswered dialog message into pendingDialog, and keeps the last state when a read fails', async () => {
    const { live, set, opened } = setup()
    const dialog = { toolId: 'toolu_q', kind: 'question' as const, prompt: 'Tabs?', options: [], multiSelect: false, answerable: true }
    set(chat(10, { state: 'question', status: 'waiting_for_input', messages: [{ seq: 1, kind: 'dialog', dialog }] }))
    live.runKnown('t')
    live.turnStarted()
    await settle()
    expect(live.source.getSnapshot()?.pendingDialog).toEqual(dialog)
    set(new Error('EIO'))
    await settle()
    expect(live.source.getSnapshot()?.pendingDialog).toEqual(dialog)
    expect(opened()).toBeGreaterThan(1)
    await live.turnEnded({ kind: 'completed' })
  })

  it('a completed turn overrules a dialog its last read still showed open; an aborted one keeps it', async () => {
    const dialog = { toolId: 'toolu_q', kind: 'question' as const, prompt: 'Tabs?', options: [], multiSelect: false, answerable: true }
    const asking = chat(10, { state: 'question', status: 'waiting_for_input', messages: [{ seq: 1, kind: 'dialog', dialog }] })
    // The CLI answered the dialog live and finished the turn before the next poll read the transcript.
    const completed = setup()
    completed.set(asking)
    completed.live.runKnown('t')
    completed.live.turnStarted()
    await settle()
    completed.set(new Error('not read again yet'))
    completed.live.turnFinishing({ kind: 'completed' })
    expect(completed.live.source.getSnapshot()).toEqual({ agent: 'codex', state: 'needs_input', status: 'completed' })
    await completed.live.turnEnded({ kind: 'completed' })
    // An abort leaves the dialog open: the next turn's text answers it.
    const aborted = setup()
    aborted.set(asking)
    aborted.live.runKnown('t')
    aborted.live.turnStarted()
    await settle()
    aborted.live.turnFinishing({ kind: 'aborted' })
    expect(aborted.live.source.getSnapshot()?.pendingDialog).toEqual(dialog)
    await aborted.live.turnEnded({ kind: 'aborted' })
  })
})
