import { describe, expect, it } from 'vitest'
import { createTranscriptFold } from '../../../src/agents/claude-code/transcript-fold.js'
import type { AgentTool } from '../../../src/contract/agent-chat.js'
import { transcript } from './transcript-builder.js'
import type { TranscriptBuilder } from './transcript-builder.js'

/**
 * Issue 35, the Claude Code reader's half: a background Bash's launch result ("Command running in
 * background with ID: …", `toolUseResult.backgroundTaskId`, as 2.1.197 writes it) is the command's
 * start, not its result. Its chip stays running, through later prompts, until a task notification
 * with its task id says how it ended. The session's state is not held (pending-work test 37).
 */

const LAUNCH = 'Command running in background with ID: b8c8my4mq. Output is being written to: /tmp/x/tasks/b8c8my4mq.output.'
const notification = (id: string, status: string): string => `<task-notification>\n<task-id>${id}</task-id>\n<status>${status}</status>\n<summary>sleep</summary>\n</task-notification>`

function bashChip(t: TranscriptBuilder): AgentTool | undefined {
  const fold = createTranscriptFold()
  for (const line of t.lines) fold.push(line)
  return fold.snapshot().messages.find((message) => message.tool?.name === 'Bash')?.tool
}

const launched = (): TranscriptBuilder =>
  transcript()
    .prompt('run it in the background')
    .toolUse('t1', 'Bash', { command: 'sleep 20', run_in_background: true })
    .toolResult('t1', LAUNCH, { result: { stdout: '', stderr: '', interrupted: false, backgroundTaskId: 'b8c8my4mq' } })
    .text('Started it in the background.')

describe('claude-code fold: background Bash chips', () => {
  it('stays running after its launch and after the turn ends, with the launch text as output', () => {
    expect(bashChip(launched())).toMatchObject({ status: 'running', output: LAUNCH })
    expect(bashChip(launched().prompt('and now?'))).toMatchObject({ status: 'running' })
  })

  it('its notification settles it: completed → ok, failed / killed → error; another task id changes nothing', () => {
    expect(bashChip(launched().prompt(notification('b8c8my4mq', 'completed')))).toMatchObject({ status: 'ok' })
    expect(bashChip(launched().prompt(notification('b8c8my4mq', 'killed')))).toMatchObject({ status: 'error' })
    expect(bashChip(launched().prompt(notification('b8c8my4mq', 'failed')))).toMatchObject({ status: 'error' })
    expect(bashChip(launched().prompt(notification('other', 'completed')))).toMatchObject({ status: 'running' })
  })

  it('a foreground Bash and a failed launch settle at their result, as before', () => {
    const foreground = transcript().prompt('go').toolUse('t1', 'Bash', { command: 'echo hi' }).toolResult('t1', 'hi', { result: { stdout: 'hi' } })
    expect(bashChip(foreground)).toMatchObject({ status: 'ok', output: 'hi' })
    const failed = transcript().prompt('go').toolUse('t1', 'Bash', { run_in_background: true }).toolResult('t1', 'denied', { isError: true, result: { backgroundTaskId: 'b1' } })
    expect(bashChip(failed)).toMatchObject({ status: 'error' })
  })
})
