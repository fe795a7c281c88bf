import { describe, expect, it } from 'vitest'
import { createTranscriptFold } from '../../../src/agents/claude-code/transcript-fold.js'
import type { FoldSnapshot } from '../../../src/agents/claude-code/transcript-fold.js'
import { SESSION, transcript } from './transcript-builder.js'
import type { TranscriptBuilder } from './transcript-builder.js'

/** Background work holds `working` after the turn's text (run-state-readers §8 items 35–47). */

function fold(t: TranscriptBuilder): FoldSnapshot {
  const f = createTranscriptFold()
  for (const line of t.lines) f.push(line)
  return f.snapshot()
}

const notification = (id: string, status: string): string => `<task-notification>\n<task-id>${id}</task-id>\n${status === '' ? '' : `<status>${status}</status>\n`}<summary>done</summary>\n</task-notification>`

function launchAgent(t: TranscriptBuilder, agentId = 'agent-1'): TranscriptBuilder {
  return t.prompt('go').toolUse('t1', 'Agent', { prompt: 'x', run_in_background: true }).toolResult('t1', 'launched', { result: { status: 'async_launched', agentId, isAsync: true } })
}

describe('pending-work hold', () => {
  it('35: an async Agent launch then the turn-end text is working', () => {
    const s = fold(launchAgent(transcript()).text('I started an agent.'))
    expect(s).toMatchObject({ state: 'working', status: 'running', detail: 'waiting for 1 background task', holding: true })
  })

  it('36: a Workflow launch (taskId) then text is working', () => {
    const t = transcript().prompt('go').toolUse('t1', 'Workflow', {}).toolResult('t1', 'ok', { result: { status: 'async_launched', taskId: 'task-9', runId: 'wf_abc' } }).text('started')
    expect(fold(t).state).toBe('working')
  })

  it('37: background Bash is never held; its notification alone is working, then text is needs_input', () => {
    const t = transcript().prompt('go').toolUse('t1', 'Bash', { run_in_background: true }).toolResult('t1', 'started', { result: { stdout: '', backgroundTaskId: 'b1' } }).text('running in background')
    expect(fold(t).state).toBe('needs_input')
    t.prompt(notification('b1', 'completed'))
    expect(fold(t).state).toBe('working')
    t.text('it finished')
    expect(fold(t).state).toBe('needs_input')
  })

  it('38: a synchronous Agent (status completed) then text is needs_input', () => {
    const t = transcript().prompt('go').toolUse('t1', 'Agent', {}).toolResult('t1', 'done', { result: { status: 'completed', agentId: 'a1' } }).text('done')
    expect(fold(t).state).toBe('needs_input')
  })

  it('39: a notification with status failed or killed releases the hold', () => {
    for (const status of ['failed', 'killed', 'completed']) {
      const t = launchAgent(transcript()).text('started').prompt(notification('agent-1', status)).text('after')
      expect(fold(t).state, status).toBe('needs_input')
    }
  })

  it('40: a status-less notification (a Monitor event) keeps the hold', () => {
    const t = launchAgent(transcript()).text('started').prompt(notification('agent-1', '')).text('after')
    expect(fold(t).state).toBe('working')
  })

  it('41: a duplicate completed notification is idempotent', () => {
    const t = launchAgent(transcript()).text('started').prompt(notification('agent-1', 'completed')).prompt(notification('agent-1', 'completed')).text('after')
    expect(fold(t).state).toBe('needs_input')
  })

  it('42: an API error during the hold is needs_input (failed)', () => {
    const t = launchAgent(transcript()).text('started').apiError('API Error: 500')
    expect(fold(t)).toMatchObject({ state: 'needs_input', status: 'failed' })
  })

  it('43: every prefix of launch → result → text → enqueue → delivery is working; the final text is needs_input', () => {
    const t = launchAgent(transcript()).text('started')
    expect(fold(t).state).toBe('working')
    t.meta({ type: 'queue-operation', operation: 'enqueue', timestamp: '2026-07-01T11:00:00.000Z', sessionId: SESSION, content: notification('agent-1', 'completed') })
    expect(fold(t).state).toBe('working')
    t.prompt(notification('agent-1', 'completed'), { origin: { kind: 'task-notification' } })
    expect(fold(t).state).toBe('working')
    t.text('the agent reported back')
    expect(fold(t).state).toBe('needs_input')
  })

  it('44: an attachment delivery tail is working; a following text is needs_input', () => {
    const t = launchAgent(transcript()).text('started')
    t.raw({ type: 'attachment', uuid: 'att-1', parentUuid: null, attachment: { type: 'queued_command', commandMode: 'task-notification', prompt: notification('agent-1', 'completed') } })
    expect(fold(t)).toMatchObject({ state: 'working', holding: false })
    t.text('reported')
    expect(fold(t).state).toBe('needs_input')
  })

  it('45: a TaskStop call releases the hold at once', () => {
    const t = launchAgent(transcript()).text('started').prompt('stop it').toolUse('t2', 'TaskStop', { task_id: 'agent-1' }).toolResult('t2', 'stopped').text('stopped')
    expect(fold(t).state).toBe('needs_input')
  })

  it('46: a SendMessage resume re-arms the hold until a second notification', () => {
    const t = launchAgent(transcript()).text('started').prompt(notification('agent-1', 'completed')).text('first report')
    expect(fold(t).state).toBe('needs_input')
    t.prompt('continue it').toolUse('t3', 'SendMessage', { to: 'agent-1' }).toolResult('t3', 'sent', { result: { resumedAgentId: 'agent-1' } }).text('resumed')
    expect(fold(t).state).toBe('working')
    t.prompt(notification('agent-1', 'completed')).text('second report')
    expect(fold(t).state).toBe('needs_input')
  })
})
