import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/controller/index.js'
import { MessageBranches } from '../../src/controller/message-branches.js'
import { contents, manualStream, setup } from './harness.js'

// Versions of a place in history (issue #31 item 9): edit and regenerate keep what they replaced.

describe('branches', () => {
  it('regenerate keeps the replaced reply as version 1 of 2; switching shows it again and back', async () => {
    const { controller } = setup(['first', 'second'])
    await controller.send('q')
    const firstId = controller.getState().messages[1]?.id as string
    await controller.regenerate()
    const secondId = controller.getState().messages[1]?.id as string
    expect(controller.branchesOf(secondId)).toEqual({ index: 1, count: 2 })
    expect(controller.branchesOf(controller.getState().messages[0]?.id as string)).toEqual({ index: 0, count: 1 })
    expect(controller.switchBranch(secondId, 0)).toBe(true)
    expect(contents(controller.getState())).toEqual([['user', 'q', 'complete'], ['assistant', 'first', 'complete']])
    expect(controller.branchesOf(firstId)).toEqual({ index: 0, count: 2 })
    expect(controller.switchBranch(firstId, 1)).toBe(true)
    expect(controller.getState().messages[1]?.content).toBe('second')
  })

  it('edit keeps the old question with its whole suffix; replies under each version stay apart', async () => {
    const { controller } = setup(['a1', 'a2', 'b1', 'b2'])
    await controller.send('A')
    await controller.regenerate() // place 1 under A: a1, a2
    const userId = controller.getState().messages[0]?.id as string
    await controller.edit(userId, 'B')
    await controller.regenerate() // place 1 under B: b1, b2
    expect(controller.branchesOf(userId)).toEqual({ index: 1, count: 2 })
    const reply = controller.getState().messages[1]?.id as string
    expect(controller.branchesOf(reply)).toEqual({ index: 1, count: 2 })
    controller.switchBranch(userId, 0)
    expect(contents(controller.getState())).toEqual([['user', 'A', 'complete'], ['assistant', 'a2', 'complete']])
    controller.switchBranch(controller.getState().messages[1]?.id as string, 0)
    expect(controller.getState().messages[1]?.content).toBe('a1')
    controller.switchBranch(userId, 1)
    // B's place keeps the version it showed when it was left.
    expect(contents(controller.getState())).toEqual([['user', 'B', 'complete'], ['assistant', 'b2', 'complete']])
    controller.switchBranch(userId, 0)
    expect(controller.getState().messages[1]?.content).toBe('a1')
  })

  it('edit without regenerate keeps the old suffix too', async () => {
    const { controller } = setup(['a'])
    await controller.send('A')
    const userId = controller.getState().messages[0]?.id as string
    await controller.edit(userId, 'B', { regenerate: false })
    expect(contents(controller.getState())).toEqual([['user', 'B', 'complete']])
    expect(controller.branchesOf(userId)).toEqual({ index: 1, count: 2 })
    controller.switchBranch(userId, 0)
    expect(contents(controller.getState())).toEqual([['user', 'A', 'complete'], ['assistant', 'a', 'complete']])
  })

  it('retry keeps nothing: it asks again after a failure', async () => {
    const { controller } = setup(['first', 'second'])
    await controller.send('q')
    await controller.retry()
    expect(controller.branchesOf(controller.getState().messages[1]?.id as string)).toEqual({ index: 0, count: 1 })
  })

  it('switching stops a running turn first, keeping its partial reply as a version', async () => {
    const stream = manualStream()
    const { controller, adapter } = setup(['first', stream.step])
    await controller.send('q')
    const pending = controller.regenerate()
    await stream.push({ type: 'text', content: 'part' })
    const streamingId = controller.getState().messages[1]?.id as string
    expect(controller.switchBranch(streamingId, 0)).toBe(true)
    await stream.push({ type: 'text', content: ' late' })
    await pending
    expect(adapter.calls[1]?.aborted).toBe(true)
    expect(controller.getState().status).not.toBe('streaming')
    expect(controller.getState().messages[1]?.content).toBe('first')
    controller.switchBranch(controller.getState().messages[1]?.id as string, 1)
    expect(contents(controller.getState())[1]).toEqual(['assistant', 'part', 'complete'])
  })

  it('unknown messages and versions change nothing; a bad index is a ConfigError with a hint', async () => {
    const { controller } = setup(['first', 'second'])
    await controller.send('q')
    await controller.regenerate()
    const before = controller.getState()
    const id = before.messages[1]?.id as string
    expect(controller.switchBranch('nope', 0)).toBe(false)
    expect(controller.switchBranch(id, 2)).toBe(false)
    expect(controller.switchBranch(id, 1)).toBe(false) // the one shown
    expect(controller.getState()).toBe(before)
    // Asking for the version shown leaves a running turn alone.
    const stream = manualStream()
    const streaming = setup(['first', stream.step])
    await streaming.controller.send('q')
    const pending = streaming.controller.regenerate()
    await stream.push({ type: 'text', content: 'part' })
    const reply = streaming.controller.getState().messages[1]?.id as string
    expect(streaming.controller.switchBranch(reply, 1)).toBe(false)
    expect(streaming.controller.getState().status).toBe('streaming')
    await stream.end()
    await pending
    expect(streaming.controller.getState().messages[1]?.content).toBe('part')
    expect(() => controller.switchBranch(id, 0.5)).toThrow(ConfigError)
    let thrown: unknown
    try {
      controller.switchBranch(id, -1)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ code: 'AK_CONFIG_INVALID', hint: expect.stringContaining('branchesOf') })
    expect(controller.branchesOf('nope')).toEqual({ index: 0, count: 1 })
  })

  it('asking about every message of a history reads it a bounded number of times per message: a renderer asks on every render', () => {
    // Counted, not timed: every read of a history entry goes through the proxy.
    let reads = 0
    const n = 2_000
    const entries = Array.from({ length: n }, (_, index) => ({ id: `p${index}`, role: index % 2 ? 'assistant' as const : 'user' as const, content: `${index}`, status: 'complete' as const, createdAt: new Date(0) }))
    const history = new Proxy(entries, { get: (target, key, receiver) => {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1
      return Reflect.get(target, key, receiver) as unknown
    } })
    const branches = new MessageBranches()
    branches.fork(entries, n - 1, 'new') // a version at the last place
    for (const message of entries) branches.positionOf(history, message.id)
    expect(branches.positionOf(history, `p${n - 1}`)).toEqual({ index: 0, count: 1 }) // its head is not shown: no picker
    // One walk to key the places, then one read per question: about 2n, where walking per question is n²/2.
    expect(reads).toBeLessThan(3 * n)
  })

  it('{ branches: false } keeps nothing: edits and regenerates replace, as before', async () => {
    const { controller } = setup(['first', 'second', 'third'], {}, { branches: false })
    await controller.send('q')
    await controller.regenerate()
    const [user, reply] = controller.getState().messages
    await controller.edit(user!.id, 'q2')
    expect(controller.branchesOf(reply!.id)).toEqual({ index: 0, count: 1 })
    expect(controller.branchesOf(user!.id)).toEqual({ index: 0, count: 1 })
    expect(controller.switchBranch(user!.id, 0)).toBe(false)
  })

  it('clear() forgets every version; a history set from outside hides versions that no longer fit', async () => {
    const { controller } = setup(['first', 'second', 'third'])
    await controller.send('q')
    await controller.regenerate()
    const [user, reply] = controller.getState().messages
    controller.setMessages([user!, { ...reply!, id: 'other' }])
    expect(controller.branchesOf('other')).toEqual({ index: 0, count: 1 })
    await controller.clear()
    await controller.send('q')
    expect(controller.branchesOf(controller.getState().messages[1]?.id as string)).toEqual({ index: 0, count: 1 })
  })
})
