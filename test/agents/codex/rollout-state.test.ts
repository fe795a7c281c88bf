import { describe, expect, it } from 'vitest'
import {
  agentItem,
  agentMessage,
  commandItem,
  errorEvent,
  event,
  foldLines,
  functionCall,
  functionOutput,
  message,
  outline,
  reasoning,
  sessionMeta,
  taskComplete,
  taskStarted,
  tokenCount,
  turnAborted,
  userItem,
  userMessage,
} from './rollout-builders.js'

const stateOf = (lines: readonly (string | unknown)[]) => {
  const chat = foldLines(lines)
  return { state: chat.state, status: chat.status, ...(chat.detail === undefined ? {} : { detail: chat.detail }) }
}

describe('codex state: lifecycle events decide', () => {
  it('is idle for an empty file, a meta-only file, and bookkeeping only', () => {
    expect(stateOf([])).toEqual({ state: 'idle', status: 'idle' })
    expect(stateOf([sessionMeta()])).toEqual({ state: 'idle', status: 'idle' })
    expect(stateOf([sessionMeta(), tokenCount(null), event({ type: 'thread_settings_applied' })])).toEqual({ state: 'idle', status: 'idle' })
  })

  it('the last of task_started / task_complete / turn_aborted wins', () => {
    expect(stateOf([taskStarted('t1')])).toEqual({ state: 'working', status: 'running' })
    expect(stateOf([taskStarted('t1'), userItem('t1', 'hi'), agentItem('t1', 'm', 'Hello'), taskComplete('t1')])).toEqual({ state: 'needs_input', status: 'completed' })
    expect(stateOf([taskStarted('t1'), taskComplete('t1'), taskStarted('t2')])).toEqual({ state: 'working', status: 'running' })
    expect(stateOf([taskStarted('t1'), turnAborted('t1', 'replaced')])).toEqual({ state: 'needs_input', status: 'stopped', detail: 'replaced' })
  })

  it('an aborted turn without a reason is stopped with "aborted", as a lifecycle line too', () => {
    const chat = foldLines([taskStarted('t1'), userMessage('x'), turnAborted(undefined)])
    expect(chat.detail).toBe('aborted')
    expect(outline(chat).at(-1)).toBe('2 lifecycle:system:aborted')
  })

  it('an explicit turn is working until its end event, even when its final answer is already written', () => {
    expect(stateOf([taskStarted('t1'), userItem('t1', 'hi'), agentItem('t1', 'm', 'Final answer.')])).toEqual({ state: 'working', status: 'running' })
  })

  it('a task_complete carrying error fails the turn with the message; usage and context limits are blocked', () => {
    const failed = foldLines([taskStarted('t1'), userItem('t1', 'hi'), taskComplete('t1', { error: { message: 'stream disconnected', codex_error_info: 'other' } })])
    expect({ state: failed.state, status: failed.status, detail: failed.detail }).toEqual({ state: 'needs_input', status: 'failed', detail: 'stream disconnected' })
    expect(outline(failed).at(-1)).toBe('2 lifecycle:system:Error: stream disconnected')
    const limited = stateOf([taskStarted('t1'), taskComplete('t1', { error: { message: 'You hit your usage limit.', codex_error_info: 'usage_limit_exceeded' } })])
    expect(limited).toEqual({ state: 'needs_input', status: 'blocked', detail: 'You hit your usage limit.' })
  })

  it('an error event fails the open turn; a plain task_complete does not clear it', () => {
    expect(stateOf([taskStarted('t1'), errorEvent('server overloaded', 'server_overloaded')])).toEqual({ state: 'needs_input', status: 'failed', detail: 'server overloaded' })
    expect(stateOf([taskStarted('t1'), errorEvent('server overloaded', 'server_overloaded'), taskComplete('t1')])).toEqual({
      state: 'needs_input',
      status: 'failed',
      detail: 'server overloaded',
    })
  })

  it('an error event repeated in task_complete.error is shown once', () => {
    const chat = foldLines([taskStarted('t1'), errorEvent('quota', 'usage_limit_exceeded'), taskComplete('t1', { error: { message: 'quota', codex_error_info: 'usage_limit_exceeded' } })])
    expect(outline(chat)).toEqual(['1 lifecycle:system:Error: quota'])
    expect(chat.status).toBe('blocked')
  })

  it('a turn that recovers after an error (the model goes on) is working again, then completed', () => {
    const lines = [taskStarted('t1'), errorEvent('Reconnecting... 1/5', { response_stream_disconnected: { http_status_code: 502 } }), reasoning(['retrying'])]
    expect(stateOf(lines)).toEqual({ state: 'working', status: 'running' })
    expect(stateOf([...lines, agentItem('t1', 'm', 'Done.'), taskComplete('t1')])).toEqual({ state: 'needs_input', status: 'completed' })
  })

  it('tool results alone do not recover a failed turn (only the model producing something does)', () => {
    const lines = [taskStarted('t1'), functionCall('c', 'exec_command', { cmd: 'x' }), errorEvent('boom'), commandItem('t1', 'c', 'completed', 0, '')]
    expect(stateOf(lines).status).toBe('failed')
  })

  it('errors that never affect turn status are shown but change nothing', () => {
    const chat = foldLines([taskStarted('t1'), errorEvent('cannot steer now', { active_turn_not_steerable: { turn_kind: 'review' } })])
    expect(chat.state).toBe('working')
    expect(outline(chat)).toEqual(['1 lifecycle:system:Error: cannot steer now'])
  })

  it('ignores a task_complete naming an older, already finished turn', () => {
    expect(stateOf([taskStarted('t1'), taskComplete('t1'), taskStarted('t2'), taskComplete('t1')])).toEqual({ state: 'working', status: 'running' })
  })

  it('a late tool item after turn_aborted does not revive the turn', () => {
    const lines = [taskStarted('t1'), functionCall('c', 'exec_command', { cmd: 'sleep 20' }), turnAborted('t1', 'interrupted'), commandItem('t1', 'c', 'failed', 137, '')]
    expect(stateOf(lines)).toEqual({ state: 'needs_input', status: 'stopped', detail: 'interrupted' })
  })

  it('a prompt written before task_started joins that turn; steering input inside an open turn does not end it', () => {
    const early = foldLines([userMessage('go'), taskStarted('t1'), taskComplete('t1')])
    expect(early.state).toBe('needs_input')
    expect(stateOf([taskStarted('t1'), userItem('t1', 'go'), userItem('t1', 'also this')])).toEqual({ state: 'working', status: 'running' })
  })

  it('thread_rolled_back drops the last N turns; seqs are not reused and state follows the remaining turn', () => {
    const chat = foldLines([
      taskStarted('t1'),
      userItem('t1', 'one'),
      agentItem('t1', 'a1', 'first answer'),
      taskComplete('t1'),
      taskStarted('t2'),
      userItem('t2', 'two'),
      functionCall('c', 'exec_command', { cmd: 'ls' }),
      event({ type: 'thread_rolled_back', num_turns: 1 }),
    ])
    expect(outline(chat)).toEqual(['1 text:user:one', '2 text:assistant:first answer', '5 lifecycle:system:Rolled back 1 turn'])
    expect(chat.state).toBe('needs_input')
    const next = foldLines([...['t1'].flatMap((t) => [taskStarted(t), userItem(t, 'one'), taskComplete(t)]), event({ type: 'thread_rolled_back', num_turns: 1 }), taskStarted('t3'), userItem('t3', 'three')])
    expect(outline(next)).toEqual(['2 lifecycle:system:Rolled back 1 turn', '3 text:user:three'])
    expect(next.state).toBe('working')
  })
})

describe('codex state: files without lifecycle events infer from the last message', () => {
  it('a prompt alone, or a tool in flight, is working; an assistant answer with every tool settled is needs_input', () => {
    expect(stateOf([userMessage('hi')])).toEqual({ state: 'working', status: 'running' })
    expect(stateOf([userMessage('hi'), agentMessage('Hello')])).toEqual({ state: 'needs_input', status: 'completed' })
    expect(stateOf([userMessage('ls'), agentMessage('Listing.'), functionCall('c', 'shell', { command: ['ls'] })])).toEqual({ state: 'working', status: 'running' })
    expect(stateOf([userMessage('ls'), functionCall('c', 'shell', {}), functionOutput('c', 'Exit code: 0\nOutput:\na\n')])).toEqual({ state: 'working', status: 'running' })
  })

  it('each prompt opens a new implicit turn: the state is the newest turn', () => {
    expect(stateOf([userMessage('a'), agentMessage('A'), userMessage('b')])).toEqual({ state: 'working', status: 'running' })
  })

  it('a turn_aborted in an old file stops the implicit turn', () => {
    expect(stateOf([userMessage('a'), turnAborted(undefined, 'interrupted')])).toEqual({ state: 'needs_input', status: 'stopped', detail: 'interrupted' })
  })

  it('never reports a terminal state from silence: a file that stops mid-turn stays working, however old', () => {
    const ancient = [message('user', '<environment_context></environment_context>'), userMessage('refactor'), reasoning(['thinking']), functionCall('c', 'shell', {}), functionOutput('c', 'Exit code: 0\nOutput:\n')]
    const chat = foldLines(ancient)
    expect(chat.state).toBe('working')
    expect(chat.status).not.toMatch(/completed|failed|stopped/)
  })

  it('legacy bare files infer the same way', () => {
    expect(stateOf([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello' }] }])).toEqual({
      state: 'needs_input',
      status: 'completed',
    })
  })
})
