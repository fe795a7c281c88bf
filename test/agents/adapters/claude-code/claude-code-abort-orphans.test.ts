import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatController } from '../../../../src/controller/index.js'
import { startClaudeRig } from '../support/claude-harness.js'
import type { ClaudeRig } from '../support/claude-harness.js'
import { collect, processesRunning, userMessage, waitUntil } from '../support/harness.js'

/**
 * Issue 15 item 2: processes the agent's Bash tool detaches from the turn (`setsid`, or a subshell
 * that exits at once) are re-parented away from the CLI, so neither the CLI's process group nor
 * its descendants reach them. Aborting the turn must still end them.
 */

const COMMAND = '(setsid sleep 404 &); (sleep 405 &); sleep 400'

/** For a failure message: each leftover's stat line and whether it carries a turn marker. */
function describeLeftovers(pids: readonly number[]): string {
  return pids.map((pid) => {
    try {
      const marked = readFileSync(`/proc/${pid}/environ`, 'latin1').includes('CHATRAIL_TURN_TREE=')
      return `${readFileSync(`/proc/${pid}/stat`, 'utf8').trim()} (turn marker: ${String(marked)})`
    } catch {
      return `${pid} (gone)`
    }
  }).join('; ')
}

let rig: ClaudeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('claudeCodeAdapter abort (real CLI): detached processes of the turn', () => {
  it.skipIf(process.platform !== 'linux')('abort() ends setsid and re-parented orphans the Bash tool started', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'tool_use', name: 'Bash', input: { command: COMMAND, description: 'Start orphans' } }] }], { allowedTools: ['Bash'] })
    const source = rig.adapter.createSource({ messages: [userMessage('Start them')] })
    const iterator = source.stream()
    const rest = collect({ stream: () => iterator, abort: () => undefined })
    await waitUntil(() => ['404', '405', '400'].every((n) => processesRunning('sleep', n).length > 0), 45_000, 'all three sleeps running')
    const orphans = [...processesRunning('sleep', '404'), ...processesRunning('sleep', '405')]
    // They really escaped: neither is a descendant of this worker any more.
    for (const pid of orphans) expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).not.toMatch(new RegExp(`\\) \\S+ ${process.pid} `))
    source.abort()
    // The Bash showed as running from its start (issue 35); after abort() nothing more arrives.
    expect((await rest).map((chunk) => [chunk.type, chunk.toolCall?.name, chunk.metadata?.toolStatus])).toEqual([['tool_call', 'Bash', 'running']])
    const left = { 404: processesRunning('sleep', '404'), 405: processesRunning('sleep', '405'), 400: processesRunning('sleep', '400') }
    // a leftover failed one CI run under load (2026-12-06, not reproduced since): say what it was
    expect(left, describeLeftovers([...left[404], ...left[405], ...left[400]])).toEqual({ 404: [], 405: [], 400: [] })
  }, 90_000)

  it.skipIf(process.platform !== 'linux')('a controller stop() mid-tool ends them too (stop aborts the turn)', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'tool_use', name: 'Bash', input: { command: COMMAND, description: 'Start orphans' } }] }], { allowedTools: ['Bash'] })
    const controller = createChatController({ adapter: rig.adapter })
    const sending = controller.send('Start them')
    await waitUntil(() => ['404', '405', '400'].every((n) => processesRunning('sleep', n).length > 0), 45_000, 'all three sleeps running')
    controller.stop()
    await sending
    // stop() returns at once; the tree is ended within the grace period (1.5 s in the rig) and a scan.
    await waitUntil(() => ['404', '405', '400'].every((n) => processesRunning('sleep', n).length === 0), 5000, 'every sleep of the stopped turn to end')
  }, 90_000)
})
