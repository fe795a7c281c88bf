import { describe, expect, it } from 'vitest'
import { createClaudeLiveDialogs } from '../../../../src/agents/claude-code/adapter/claude-live-dialogs.js'
import type { CanUseToolRequest, PermissionDecision } from '../../../../src/agents/claude-code/adapter/claude-control-request.js'
import { parseCanUseToolRequest } from '../../../../src/agents/claude-code/adapter/claude-control-request.js'
import type { AgentSnapshot } from '../../../../src/contract/agent-snapshot.js'
import { OWN_CLAUDE_CAPTURES, ownCapture } from '../support/captures.js'

const working: AgentSnapshot = { agent: 'claude-code', state: 'working', status: 'running', detail: 'running AskUserQuestion' }

/** The real can_use_tool request of the recorded AskUserQuestion capture. */
function recordedRequest(): CanUseToolRequest {
  const request = ownCapture(OWN_CLAUDE_CAPTURES, 'ask-user-question-answered').map(parseCanUseToolRequest).find((found) => found !== undefined)
  if (!request) throw new Error('the capture has no can_use_tool request')
  return request
}

function setup(onPermissionRequest?: () => PermissionDecision | Promise<PermissionDecision>) {
  let changes = 0
  const written: unknown[] = []
  const dialogs = createClaudeLiveDialogs({ ...(onPermissionRequest ? { onPermissionRequest } : {}), onChange: () => (changes += 1) })
  const write = (line: string): void => void written.push(JSON.parse(line))
  return { dialogs, written, write, changes: () => changes }
}

describe('createClaudeLiveDialogs', () => {
  it('shows a pending AskUserQuestion over the transcript state and answers it on stdin', async () => {
    const { dialogs, written, write, changes } = setup()
    const request = recordedRequest()
    dialogs.request(request, write)
    expect(changes()).toBe(1)
    const shown = dialogs.overlay(working)
    expect(shown).toMatchObject({ state: 'question', status: 'waiting_for_input', pendingDialog: { toolId: request.toolUseId, kind: 'question', answerable: true } })
    expect(shown.pendingDialog?.questions?.map((q) => q.question)).toEqual(['Which color should the button be?', 'Which extras?'])
    await expect(dialogs.answer(request.toolUseId, { kind: 'question', answers: [{ question: 'Which color should the button be?', chosen: ['Blue'] }] }, shown)).resolves.toEqual({ delivered: 'live' })
    expect(written).toEqual([
      {
        type: 'control_response',
        response: { subtype: 'success', request_id: request.requestId, response: { behavior: 'allow', updatedInput: { ...request.input, answers: { 'Which color should the button be?': 'Blue' } } } },
      },
    ])
    expect(dialogs.overlay(working)).toBe(working)
  })

  it('drops a dialog the CLI withdrew, or when the turn ends; then answers only as the next turn', async () => {
    const { dialogs, write } = setup()
    const request = recordedRequest()
    dialogs.request(request, write)
    dialogs.cancel(request.requestId)
    expect(dialogs.overlay(working)).toBe(working)
    dialogs.request(request, write)
    dialogs.clear()
    const fromTranscript = { ...working, state: 'question' as const, pendingDialog: { toolId: request.toolUseId, kind: 'question' as const, prompt: 'Which color should the button be?', options: [], multiSelect: false, answerable: true } }
    await expect(dialogs.answer(request.toolUseId, { kind: 'question', answers: [{ question: 'Which color should the button be?', chosen: ['Red'] }] }, fromTranscript)).resolves.toEqual({
      delivered: 'next-turn',
      text: 'My answers to your questions: "Which color should the button be?" = "Red".',
    })
    await expect(dialogs.answer('toolu_other', { kind: 'question', answers: [] }, fromTranscript)).rejects.toMatchObject({ code: 'NO_PENDING_DIALOG' })
  })

  it('denies other tools by default, naming allowedTools / permissionMode / onPermissionRequest', async () => {
    const { dialogs, written, write } = setup()
    dialogs.request({ requestId: 'r1', toolName: 'Bash', toolUseId: 'toolu_b', input: { command: 'ls' } }, write)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(written).toEqual([{ type: 'control_response', response: { subtype: 'success', request_id: 'r1', response: { behavior: 'deny', message: expect.stringContaining('`allowedTools` or `permissionMode`') } } }])
  })

  it('shows waiting_for_approval while the handler decides; a throwing handler denies with its message', async () => {
    let decide: ((decision: PermissionDecision) => void) | undefined
    const pending = setup(() => new Promise<PermissionDecision>((resolve) => (decide = resolve)))
    pending.dialogs.request({ requestId: 'r2', toolName: 'Edit', toolUseId: 'toolu_e', input: {} }, pending.write)
    expect(pending.dialogs.overlay(working)).toEqual({ agent: 'claude-code', state: 'needs_input', status: 'waiting_for_approval', detail: 'permission to use Edit' })
    decide?.({ behavior: 'allow' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(pending.written).toEqual([{ type: 'control_response', response: { subtype: 'success', request_id: 'r2', response: { behavior: 'allow' } } }])
    expect(pending.dialogs.overlay(working)).toBe(working)

    const throwing = setup(() => {
      throw new Error('policy server down')
    })
    throwing.dialogs.request({ requestId: 'r3', toolName: 'Edit', toolUseId: 'toolu_f', input: {} }, throwing.write)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(throwing.written).toEqual([{ type: 'control_response', response: { subtype: 'success', request_id: 'r3', response: { behavior: 'deny', message: 'Permission handler failed: policy server down' } } }])
  })
})
