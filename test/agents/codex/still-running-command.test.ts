import { describe, expect, it } from 'vitest'
import { agentItem, commandItem, foldLines, functionCall, functionOutput, sessionMeta, taskComplete, taskStarted, userItem } from './rollout-builders.js'

/**
 * Issue 35, the reader's half: when unified exec yields while a command still runs, 0.171.0 writes
 * the model-facing output with `Process running with session ID N` in its header (real text below,
 * from the live test's rollout). That is what the command printed so far, not its result: the chip
 * stays running until Codex's own `item_completed` settles it.
 */

const T = '01a23565-9e2e-7173-99e8-7029bac7ee41'
const yielded = (body: string): string =>
  `Chunk ID: cac1c7\nWall time: 1.0013 seconds\nProcess running with session ID 64260\nOriginal token count: 0\nOutput:\n${body}`
const head = [sessionMeta(), taskStarted(T), userItem(T, 'Run the sleep'), functionCall('call_1', 'exec_command', { cmd: 'sleep 20; echo finished', yield_time_ms: 1000 })]
const chip = (lines: string[]) => foldLines(lines).messages.find((message) => message.kind === 'tool')?.tool

describe('codex fold: a command that yielded while still running', () => {
  it('stays running through its yielded output and the end of the turn', () => {
    expect(chip([...head, functionOutput('call_1', yielded(''))])).toMatchObject({ status: 'running' })
    const ended = foldLines([...head, functionOutput('call_1', yielded('half')), agentItem(T, 'm1', 'Started it.'), taskComplete(T)])
    expect(ended.status).toBe('completed')
    expect(ended.messages.find((message) => message.kind === 'tool')?.tool).toMatchObject({ status: 'running', output: 'half' })
  })

  it('ends as Codex records it: `failed` exit -1 when exec stops it (error), or its real exit with the full output', () => {
    const killed = [...head, functionOutput('call_1', yielded('')), agentItem(T, 'm1', 'Started it.'), taskComplete(T), commandItem(T, 'call_1', 'failed', -1, '')]
    expect(chip(killed)).toMatchObject({ status: 'error' })
    const finished = [...head, functionOutput('call_1', yielded('half')), commandItem(T, 'call_1', 'completed', 0, 'half and the rest\n')]
    expect(chip(finished)).toMatchObject({ status: 'ok', output: 'half and the rest\n' })
  })

  it('a command whose header says it exited is settled as before, and a body that says "Process running" fakes nothing', () => {
    const exited = 'Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nok\n'
    expect(chip([...head, functionOutput('call_1', exited)])).toMatchObject({ status: 'ok', output: 'ok\n' })
    const faked = `Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nProcess running with session ID 1\n`
    expect(chip([...head, functionOutput('call_1', faked)])).toMatchObject({ status: 'ok' })
  })
})
