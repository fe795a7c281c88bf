import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { permissionRequestsThrough } from '../../../../src/agents/claude-code/index.js'
import { permissionConfirmations } from '../../../../src/conversation/actions.js'
import { startClaudeRig } from '../support/claude-harness.js'
import type { ClaudeRig } from '../support/claude-harness.js'
import { collect, userMessage, waitForSnapshot } from '../support/harness.js'

/**
 * The real Claude Code CLI's permission prompt (`can_use_tool` for Bash in `default` mode) as a
 * confirmation record (chatrail/actions' `permissionConfirmations`): the CLI waits while the record
 * is pending; two approvals at once (two tabs, a double click) send one allow, and the tool runs.
 */

let rig: ClaudeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

/**
 * Starts a turn whose model asks to run `touch <file>` under a permission gate of records bound to
 * `sessionId`, and waits until the CLI waits for approval and its record is filed.
 */
async function pausedOnTouch(file: string, sessionId: string, reply: string) {
  const permissions = permissionConfirmations({ sessionId })
  rig = await startClaudeRig(
    [{ content: [{ type: 'tool_use', name: 'Bash', input: { command: `touch ${file}`, description: 'Touch a file' } }] }, { content: [{ type: 'text', text: reply }] }],
    { onPermissionRequest: permissionRequestsThrough(permissions) },
  )
  const turn = collect(rig.adapter.createSource({ messages: [userMessage('Touch a file')] }))
  await waitForSnapshot(rig.adapter.agentRunState, (snapshot) => snapshot.status === 'waiting_for_approval')
  let records = await permissions.confirmations.list()
  for (let tries = 0; records.length === 0 && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    records = await permissions.confirmations.list()
  }
  return { permissions, turn, records, cwd: rig.home.cwd }
}

describe('claudeCodeAdapter permission prompts as confirmation records (real CLI)', () => {
  it('the prompt waits as a pending record; two approvals at once allow it once and the tool runs', async () => {
    const { permissions, turn, records, cwd } = await pausedOnTouch('approved.txt', 'claude-1', 'Touched.')
    expect(records).toEqual([expect.objectContaining({ status: 'pending', action: { name: 'Bash', input: expect.objectContaining({ command: 'touch approved.txt' }) } })])
    expect(existsSync(join(cwd, 'approved.txt'))).toBe(false)
    const token = records[0]!.token
    const decided = await Promise.all([permissions.confirmations.approve(token, 'claude-1'), permissions.confirmations.approve(token, 'claude-1')])
    expect(decided.map((record) => record.status)).toEqual(['approved', 'approved'])
    const chunks = await turn
    expect(chunks.find((chunk) => chunk.type === 'tool_result')?.metadata?.isError).toBe(false)
    expect(existsSync(join(cwd, 'approved.txt'))).toBe(true)
    expect((await permissions.confirmations.get(token))?.outcome).toEqual({ status: 'complete', result: 'allowed' })
  }, 90_000)

  it('rejecting the record sends the deny with its reason; the tool never runs', async () => {
    const { permissions, turn, records, cwd } = await pausedOnTouch('refused.txt', 'claude-2', 'Not done.')
    await permissions.confirmations.reject(records[0]!.token, 'claude-2', 'not in this repository')
    const chunks = await turn
    const result = chunks.find((chunk) => chunk.type === 'tool_result')
    expect(result?.metadata?.isError).toBe(true)
    expect(result?.content).toContain('not in this repository')
    expect(existsSync(join(cwd, 'refused.txt'))).toBe(false)
  }, 90_000)
})
