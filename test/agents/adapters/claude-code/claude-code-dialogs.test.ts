import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentRunStateSource } from '../../../../src/contract/live-agent-adapter.js'
import type { DialogAnswerInput } from '../../../../src/contract/dialog.js'
import { startClaudeRig } from '../support/claude-harness.js'
import type { ClaudeRig } from '../support/claude-harness.js'
import { collect, textOf, userMessage, waitForSnapshot } from '../support/harness.js'

/**
 * Dialogs and permission prompts of a headless Claude Code turn, answered from the chat. With
 * `--permission-prompt-tool stdio` the CLI offers AskUserQuestion and ExitPlanMode in `-p` mode and
 * asks for each one on stdout (`can_use_tool`); the answer goes back on stdin while the turn runs.
 */

let rig: ClaudeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const questions = {
  questions: [
    { question: 'Which color?', header: 'Color', multiSelect: false, options: [{ label: 'Red', description: 'Warm' }, { label: 'Blue', description: 'Cool' }] },
    { question: 'Which extras?', header: 'Extras', multiSelect: true, options: [{ label: 'Icon', description: 'An icon' }, { label: 'Shadow', description: 'A shadow' }] },
  ],
}

function answer(source: AgentRunStateSource, toolId: string, input: DialogAnswerInput): ReturnType<NonNullable<AgentRunStateSource['answerDialog']>> {
  if (!source.answerDialog) throw new Error('the adapter cannot answer dialogs')
  return source.answerDialog(toolId, input)
}

describe('claudeCodeAdapter dialogs (real CLI)', () => {
  it('an AskUserQuestion shows as pendingDialog and the answer reaches the running CLI', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'tool_use', name: 'AskUserQuestion', input: questions }] }, { content: [{ type: 'text', text: 'Red it is.' }] }])
    const runState = rig.adapter.agentRunState
    const turn = collect(rig.adapter.createSource({ messages: [userMessage('Style the button')] }))
    const asking = await waitForSnapshot(runState, (snapshot) => snapshot.pendingDialog !== undefined)
    expect(asking).toMatchObject({ agent: 'claude-code', state: 'question', status: 'waiting_for_input' })
    const dialog = asking.pendingDialog
    expect(dialog).toMatchObject({ kind: 'question', prompt: 'Which color?', multiSelect: false, answerable: true })
    expect(dialog?.questions?.map((q) => q.question)).toEqual(['Which color?', 'Which extras?'])
    expect(dialog?.options.map((option) => option.label)).toContain('Red')

    const toolId = dialog?.toolId ?? ''
    const delivered = await answer(runState, toolId, {
      kind: 'question',
      answers: [
        { question: 'Which color?', chosen: ['Red'] },
        { question: 'Which extras?', chosen: ['Icon', 'Shadow'], otherText: 'rounded corners' },
      ],
    })
    expect(delivered).toEqual({ delivered: 'live' })
    const chunks = await turn
    const call = chunks.find((chunk) => chunk.type === 'tool_call')
    expect(call?.toolCall?.name).toBe('AskUserQuestion')
    expect(call?.toolCall?.result).toContain('"Which color?"="Red"')
    expect(call?.toolCall?.result).toContain('"Which extras?"="Icon, Shadow, rounded corners"')
    expect(textOf(chunks)).toBe('Red it is.')
    const after = await waitForSnapshot(runState, (snapshot) => snapshot.status === 'completed', 5000)
    expect(after.pendingDialog).toBeUndefined()
    await expect(answer(runState, toolId, { kind: 'question', answers: [] })).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG' })
  }, 90_000)

  it('a plan rejected with feedback reaches the CLI as the picker would send it', async () => {
    rig = await startClaudeRig(
      [{ content: [{ type: 'tool_use', name: 'ExitPlanMode', input: { plan: '# Plan\n\n1. Split session.ts' } }] }, { content: [{ type: 'text', text: 'Keeping it whole.' }] }],
      { permissionMode: 'plan' },
    )
    const runState = rig.adapter.agentRunState
    const turn = collect(rig.adapter.createSource({ messages: [userMessage('Plan the refactor')] }))
    const asking = await waitForSnapshot(runState, (snapshot) => snapshot.pendingDialog?.kind === 'plan')
    expect(asking).toMatchObject({ state: 'question', status: 'waiting_for_approval' })
    expect(asking.pendingDialog?.prompt).toBe('# Plan\n\n1. Split session.ts')
    await expect(answer(runState, asking.pendingDialog?.toolId ?? '', { kind: 'question', answers: [] })).rejects.toMatchObject({ code: 'DIALOG_ANSWER_MISMATCH' })
    await answer(runState, asking.pendingDialog?.toolId ?? '', { kind: 'plan', approved: false, feedback: 'Keep session.ts whole' })
    const chunks = await turn
    const result = chunks.find((chunk) => chunk.type === 'tool_result')
    expect(result?.metadata?.isError).toBe(true)
    expect(result?.content).toMatch(/the user said:\nKeep session\.ts whole$/)
    expect(textOf(chunks)).toBe('Keeping it whole.')
  }, 90_000)

  it('a permission prompt waits for onPermissionRequest (waiting_for_approval meanwhile); allowing runs the tool', async () => {
    let allow: (() => void) | undefined
    const decided = new Promise<void>((resolve) => (allow = resolve))
    rig = await startClaudeRig(
      [{ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch approved.txt', description: 'Touch a file' } }] }, { content: [{ type: 'text', text: 'Touched.' }] }],
      {
        onPermissionRequest: async (request) => {
          expect(request).toMatchObject({ toolName: 'Bash', input: { command: 'touch approved.txt' } })
          await decided
          return { behavior: 'allow', updatedInput: request.input }
        },
      },
    )
    const turn = collect(rig.adapter.createSource({ messages: [userMessage('Touch a file')] }))
    const waiting = await waitForSnapshot(rig.adapter.agentRunState, (snapshot) => snapshot.status === 'waiting_for_approval')
    expect(waiting).toMatchObject({ state: 'needs_input', detail: 'permission to use Bash' })
    expect(existsSync(join(rig.home.cwd, 'approved.txt'))).toBe(false)
    allow?.()
    const chunks = await turn
    expect(chunks.find((chunk) => chunk.type === 'tool_result')?.metadata?.isError).toBe(false)
    expect(existsSync(join(rig.home.cwd, 'approved.txt'))).toBe(true)
  }, 90_000)

  it('without a handler a permission prompt is denied (as plain -p does), naming the options that allow it', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch denied.txt', description: 'Touch' } }] }, { content: [{ type: 'text', text: 'Not allowed.' }] }])
    const chunks = await collect(rig.adapter.createSource({ messages: [userMessage('Touch a file')] }))
    const result = chunks.find((chunk) => chunk.type === 'tool_result')
    expect(result?.metadata?.isError).toBe(true)
    expect(result?.content).toContain('allowedTools')
    expect(existsSync(join(rig.home.cwd, 'denied.txt'))).toBe(false)
  }, 60_000)

  it('a dialog left open by an aborted turn is answered as the text of the next turn', async () => {
    rig = await startClaudeRig([{ content: [{ type: 'tool_use', name: 'AskUserQuestion', input: questions }] }])
    const runState = rig.adapter.agentRunState
    const source = rig.adapter.createSource({ messages: [userMessage('Style the button')] })
    const turn = collect(source)
    const asking = await waitForSnapshot(runState, (snapshot) => snapshot.pendingDialog !== undefined)
    source.abort()
    await turn
    // The CLI is gone; the transcript still shows the question unanswered.
    const left = await waitForSnapshot(runState, (snapshot) => snapshot.pendingDialog?.toolId === asking.pendingDialog?.toolId, 5000)
    const delivered = await answer(runState, left.pendingDialog?.toolId ?? '', { kind: 'question', answers: [{ question: 'Which color?', chosen: ['Blue'] }] })
    expect(delivered).toEqual({ delivered: 'next-turn', text: 'My answers to your questions: "Which color?" = "Blue".' })
  }, 90_000)
})
