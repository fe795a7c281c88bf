import { describe, expect, it } from 'vitest'
import { planEdit, planRegenerate, planRetry } from '../../src/controller/index.js'
import type { Message } from '../../src/contract/index.js'
import { contents, manualStream, setup } from './harness.js'

const msg = (id: string, role: Message['role'], content = id): Message => ({ id, role, content, status: 'complete', createdAt: new Date(0) })

describe('retry', () => {
  it('replaces the last assistant with a new one (new id) answering the same user text', async () => {
    const onMessage: string[] = []
    const { controller, adapter } = setup(['first', 'second'], { onMessage: (m) => void onMessage.push(m.content) })
    await controller.send('q')
    const oldId = controller.getState().messages[1]?.id
    await controller.retry()
    const state = controller.getState()
    expect(contents(state)).toEqual([['user', 'q', 'complete'], ['assistant', 'second', 'complete']])
    expect(state.messages[1]?.id).not.toBe(oldId)
    expect(adapter.requests[1]?.messages.map((m) => m.content)).toEqual(['q', ''])
    expect(onMessage).toEqual(['first', 'second'])
  })

  it('aborts the stream it replaces (upstream did not) and drops its late chunks', async () => {
    const first = manualStream()
    const { controller, adapter } = setup([first.step, 'again'])
    const pending = controller.send('q')
    await first.push({ type: 'text', content: 'old' })
    await controller.retry()
    await first.push({ type: 'text', content: ' late' })
    await pending
    expect(adapter.calls[0]?.aborted).toBe(true)
    expect(contents(controller.getState())).toEqual([['user', 'q', 'complete'], ['assistant', 'again', 'complete']])
  })

  it('does nothing unless history ends in [user, assistant]', async () => {
    const { controller, adapter } = setup(['unused'], { initialMessages: [msg('u', 'user'), msg('a', 'assistant'), msg('t', 'tool')] })
    const before = controller.getState()
    await controller.retry()
    expect(controller.getState()).toBe(before)
    expect(adapter.calls).toHaveLength(0)
    expect(planRetry([])).toBeUndefined()
    expect(planRetry([msg('a', 'assistant'), msg('b', 'assistant')])).toBeUndefined()
  })

  it('clears the error of a failed turn when retried', async () => {
    const { controller } = setup([[{ type: 'error', content: 'boom' }], 'recovered'])
    await controller.send('q')
    expect(controller.getState().status).toBe('error')
    await controller.retry()
    expect(controller.getState().error).toBeNull()
    expect(contents(controller.getState())).toEqual([['user', 'q', 'complete'], ['assistant', 'recovered', 'complete']])
  })
})

describe('regenerate', () => {
  it('regenerates a given assistant message, dropping it and every later turn', async () => {
    const { controller } = setup(['A1', 'A2', 'A1-new'])
    await controller.send('first question')
    await controller.send('second question')
    const target = controller.getState().messages[1]?.id as string
    await controller.regenerate(target)
    expect(contents(controller.getState()).map(([, content]) => content)).toEqual(['first question', 'A1-new'])
  })

  it('without an id regenerates the last message when it is an assistant', async () => {
    const { controller, adapter } = setup(['one', 'two'])
    await controller.send('q')
    await controller.regenerate()
    expect(contents(controller.getState())).toEqual([['user', 'q', 'complete'], ['assistant', 'two', 'complete']])
    expect(adapter.calls).toHaveLength(2)
  })

  it('keeps intermediate assistant and tool messages before the target and asks the nearest user text', () => {
    const history = [msg('u1', 'user', 'ask'), msg('a1', 'assistant'), msg('t1', 'tool'), msg('a2', 'assistant')]
    expect(planRegenerate(history, 'a2')).toEqual({ kept: history.slice(0, 3), query: 'ask' })
    expect(planRegenerate(history)).toEqual({ kept: history.slice(0, 3), query: 'ask' })
  })

  it('is a silent no-op for unknown ids, non-assistant targets and chats without a user message', async () => {
    const { controller, adapter } = setup(['unused'], { initialMessages: [msg('a0', 'assistant'), msg('u1', 'user')] })
    const before = controller.getState()
    await controller.regenerate('missing')
    await controller.regenerate('u1')
    await controller.regenerate('a0')
    await controller.regenerate()
    expect(controller.getState()).toBe(before)
    expect(adapter.calls).toHaveLength(0)
  })
})

describe('edit', () => {
  it('edits a user message in place (same id and createdAt), truncates later turns and regenerates', async () => {
    const { controller, adapter } = setup(['A1', 'A2', 'A1-edited'])
    await controller.send('one')
    await controller.send('two')
    const user = controller.getState().messages[0] as Message
    await controller.edit(user.id, 'one, edited')
    const state = controller.getState()
    expect(contents(state)).toEqual([['user', 'one, edited', 'complete'], ['assistant', 'A1-edited', 'complete']])
    expect(state.messages[0]?.id).toBe(user.id)
    expect(state.messages[0]?.createdAt).toEqual(user.createdAt)
    expect(adapter.requests[2]?.messages[0]?.content).toBe('one, edited')
  })

  it('with { regenerate: false } truncates without a model call and aborts a running stream (upstream did not)', async () => {
    const stream = manualStream()
    const { controller, adapter } = setup([stream.step])
    const pending = controller.send('q')
    await stream.push({ type: 'text', content: 'partial' })
    await controller.edit(controller.getState().messages[0]?.id as string, 'q2', { regenerate: false })
    await stream.push({ type: 'text', content: ' late' })
    await pending
    expect(adapter.calls).toHaveLength(1)
    expect(adapter.calls[0]?.aborted).toBe(true)
    expect(contents(controller.getState())).toEqual([['user', 'q2', 'complete']])
    expect(controller.getState().status).toBe('idle')
  })

  it('edits assistant, system and tool messages in place without truncating or calling the model', async () => {
    const history = [msg('u', 'user'), msg('a', 'assistant'), msg('u2', 'user'), msg('a2', 'assistant')]
    const { controller, adapter } = setup([], { initialMessages: history })
    await controller.edit('a', 'fixed answer', { regenerate: true })
    expect(contents(controller.getState()).map(([, content]) => content)).toEqual(['u', 'fixed answer', 'u2', 'a2'])
    expect(adapter.calls).toHaveLength(0)
  })

  it('ignores unknown ids', async () => {
    const { controller } = setup([], { initialMessages: [msg('u', 'user')] })
    const before = controller.getState()
    await controller.edit('nope', 'x')
    expect(controller.getState()).toBe(before)
    expect(planEdit(before.messages, 'nope', 'x')).toBeUndefined()
  })
})
