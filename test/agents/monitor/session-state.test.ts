import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { NormalizedStatus, RunState } from '../../../src/contract/agent-chat.js'
import { isTerminalStatus } from '../../../src/agents/monitor/monitor-entry.js'
import { deriveSessionState, formatWindow } from '../../../src/agents/monitor/session-state.js'
import type { ProcessEvidence, SessionStateInput } from '../../../src/agents/monitor/session-state.js'

/** The idle-vs-ended rules as a pure function: the table, then properties over every input. */

const LIVE = 300_000
const ENDED = 86_400_000
const NOW = 1_800_000_000_000

function input(state: RunState, status: NormalizedStatus, silentMs: number, process: ProcessEvidence = 'none', detail?: string): SessionStateInput {
  return { verdict: { state, status, ...(detail !== undefined ? { detail } : {}) }, lastActivityAt: NOW - silentMs, now: NOW, process, liveWindowMs: LIVE, endedWindowMs: ENDED }
}

describe('deriveSessionState: the rules', () => {
  it.each([
    ['running, quiet 5 min exactly', input('working', 'running', LIVE), { state: 'working', status: 'running' }],
    ['running, quiet past the live window → idle', input('working', 'streaming', LIVE + 1, 'none', 'x'), { state: 'idle', status: 'idle', detail: 'quiet for over 5 min (last: x)' }],
    ['running, quiet past a day, no process → completed by silence', input('working', 'running', ENDED + 1), { state: 'ended', status: 'completed', endedBy: 'silence' }],
    ['a question, quiet for hours → still a question', input('question', 'waiting_for_input', 3 * LIVE), { state: 'question', status: 'waiting_for_input' }],
    ['a finished turn → ended by the turn', input('needs_input', 'completed', 0), { state: 'ended', status: 'completed', endedBy: 'turn' }],
    ['a failed turn → ended, failed', input('needs_input', 'failed', 0, 'none', 'boom'), { state: 'ended', status: 'failed', endedBy: 'turn', detail: 'boom' }],
    ['/exit → ended, stopped', input('ended', 'stopped', 0), { state: 'ended', status: 'stopped', endedBy: 'turn' }],
    ['alive + finished → waiting for the next prompt', input('needs_input', 'completed', ENDED * 3, 'alive'), { state: 'needs_input', status: 'waiting_for_input' }],
    ['alive + failed → blocked', input('needs_input', 'failed', 0, 'alive', 'boom'), { state: 'needs_input', status: 'blocked', detail: 'the turn failed: boom' }],
    ['alive + running, quiet for days → idle, never ended', input('working', 'running', ENDED * 3, 'alive'), { state: 'idle', status: 'idle' }],
    ['gone mid-turn → stopped by the process', input('working', 'running', 0, 'gone'), { state: 'ended', status: 'stopped', endedBy: 'process', detail: 'the process exited mid-turn' }],
    ['gone after a reply without an end marker → completed by the process', input('needs_input', 'unknown', 0, 'gone'), { state: 'ended', status: 'completed', endedBy: 'process' }],
    ['gone after a finished turn → the turn decides', input('needs_input', 'completed', 0, 'gone'), { state: 'ended', status: 'completed', endedBy: 'turn' }],
  ] as const)('%s', (_name, given, expected) => {
    expect(deriveSessionState(given)).toMatchObject(expected)
  })

  it('formats windows as a person says them', () => {
    expect([formatWindow(300_000), formatWindow(86_400_000), formatWindow(90_000), formatWindow(1500)]).toEqual(['5 min', '24 h', '90 s', '1500 ms'])
  })
})

const states: RunState[] = ['idle', 'working', 'needs_input', 'question', 'ended']
const statuses: NormalizedStatus[] = ['running', 'streaming', 'waiting_for_approval', 'waiting_for_input', 'blocked', 'completed', 'failed', 'stopped', 'idle', 'unknown']
const arbitraryInput = fc.record({
  state: fc.constantFrom(...states),
  status: fc.constantFrom(...statuses),
  silentMs: fc.integer({ min: 0, max: 5 * ENDED }),
  process: fc.constantFrom<ProcessEvidence>('alive', 'gone', 'none'),
  liveWindowMs: fc.integer({ min: 1, max: ENDED - 1 }),
})

function toInput(value: { state: RunState; status: NormalizedStatus; silentMs: number; process: ProcessEvidence; liveWindowMs: number }): SessionStateInput {
  return { verdict: { state: value.state, status: value.status }, lastActivityAt: NOW - value.silentMs, now: NOW, process: value.process, liveWindowMs: value.liveWindowMs, endedWindowMs: ENDED }
}

describe('deriveSessionState: properties', () => {
  it('terminal ⇔ state ended ⇔ a terminal status ⇔ endedBy set', () => {
    fc.assert(
      fc.property(arbitraryInput, (value) => {
        const out = deriveSessionState(toInput(value))
        const terminal = out.state === 'ended'
        return terminal === isTerminalStatus(out.status) && terminal === (out.endedBy !== undefined)
      }),
    )
  })

  it('a live process is never terminal', () => {
    fc.assert(fc.property(arbitraryInput, (value) => deriveSessionState(toInput({ ...value, process: 'alive' })).state !== 'ended'))
  })

  it('silence alone never ends a session before endedWindowMs (only the reader or the process can)', () => {
    fc.assert(
      fc.property(arbitraryInput, (value) => {
        fc.pre(value.silentMs <= ENDED && value.process !== 'gone')
        const out = deriveSessionState(toInput(value))
        return out.endedBy !== 'silence' && (out.state !== 'ended' || out.endedBy === 'turn')
      }),
    )
  })

  it('within the live window the verdict passes through unchanged unless it is terminal', () => {
    fc.assert(
      fc.property(arbitraryInput, (value) => {
        fc.pre(value.silentMs <= value.liveWindowMs && value.process === 'none' && value.state !== 'ended' && !isTerminalStatus(value.status))
        expect(deriveSessionState(toInput(value))).toEqual({ state: value.state, status: value.status })
      }),
    )
  })

  it('more silence never reopens: once ended by silence, longer silence stays ended', () => {
    fc.assert(
      fc.property(arbitraryInput, fc.integer({ min: 0, max: ENDED }), (value, more) => {
        const first = deriveSessionState(toInput(value))
        fc.pre(first.endedBy === 'silence')
        return deriveSessionState(toInput({ ...value, silentMs: value.silentMs + more })).endedBy === 'silence'
      }),
    )
  })
})
