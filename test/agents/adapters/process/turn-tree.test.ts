import { describe, expect, it } from 'vitest'
import { startAgentProcess } from '../../../../src/agents/process/agent-process.js'
import { processesRunning, waitUntil } from '../support/harness.js'

/**
 * terminate() ends every process started under the run, found by the per-run environment marker,
 * session, group and ancestry (turn-tree.ts), rescanning until none is left: `setsid` and
 * re-parented orphans (issue 15 item 2), and a child spawned while the abort is under way (the
 * race of issue 14). `sh` stands in for the agent CLI; each sleep's argument is unique to this
 * run (`<n>.<random>` seconds) so a system-wide scan finds only this run's processes.
 */

const runTag = String(Math.floor(Math.random() * 1e9)).padStart(9, '0')
/** A sleep argument unique to this test run. */
const arg = (n: number): string => `${n}.${runTag}`

/** This run's `sleep <argument>` processes. */
const running = (argument: string): number[] => processesRunning('sleep', argument)

describe.skipIf(process.platform !== 'linux')('terminate() and the processes that left the tree', () => {
  it('ends setsid and double-fork orphans (re-parented to init, another session)', async () => {
    const child = startAgentProcess({ bin: 'sh', args: ['-c', `(setsid sleep ${arg(4061)} &); (sleep ${arg(4062)} &); sleep ${arg(4063)}`], onLine: () => undefined })
    await waitUntil(() => [arg(4061), arg(4062), arg(4063)].every((n) => running(n).length > 0), 10_000, 'the three sleeps')
    await child.terminate(1000)
    expect([running(arg(4061)), running(arg(4062)), running(arg(4063))]).toEqual([[], [], []])
  })

  it('ends a child spawned (in a new session) while the abort is under way, after its parent exited', async () => {
    // On SIGTERM the shell starts a detached sleep and exits at once: the new process exists only
    // after the first signal, and its parent is gone before anyone could see it as a descendant.
    const script = `trap "setsid sleep ${arg(4091)} & exit 0" TERM; sleep ${arg(4092)} & wait`
    const child = startAgentProcess({ bin: 'sh', args: ['-c', script], onLine: () => undefined })
    await waitUntil(() => running(arg(4092)).length > 0, 10_000, 'the first sleep')
    await child.terminate(1000)
    expect([running(arg(4091)), running(arg(4092))]).toEqual([[], []])
  })

  it('leaves processes alone that were not started under the run', async () => {
    const bystander = startAgentProcess({ bin: 'sleep', args: [arg(4101)], onLine: () => undefined })
    const child = startAgentProcess({ bin: 'sh', args: ['-c', `sleep ${arg(4102)}`], onLine: () => undefined })
    await waitUntil(() => running(arg(4101)).length > 0 && running(arg(4102)).length > 0, 10_000, 'both sleeps')
    await child.terminate(1000)
    expect(running(arg(4102))).toEqual([])
    expect(running(arg(4101))).toHaveLength(1)
    await bystander.terminate(1000)
    expect(running(arg(4101))).toEqual([])
  })
})
