import { describe, expect, it } from 'vitest'
import { createChatController, STOPPED_TOOL_CALL_ERROR } from '../../src/controller/index.js'
import type { Message, StreamSource } from '../../src/contract/index.js'
import { contents, manualStream, settle, setup } from './harness.js'

describe('stop', () => {
  it('is synchronous: aborts the source, completes the partial assistant, goes idle, reports onMessage', async () => {
    const stream = manualStream()
    const finals: Message[] = []
    const { controller, adapter } = setup([stream.step], { onMessage: (message) => void finals.push(message) })
    const pending = controller.send('q')
    await stream.push({ type: 'text', content: 'half' })
    controller.stop()
    expect(adapter.calls[0]?.aborted).toBe(true)
    expect(contents(controller.getState())).toEqual([['user', 'q', 'complete'], ['assistant', 'half', 'complete']])
    expect(controller.getState().status).toBe('idle')
    expect(finals.map((m) => m.content)).toEqual(['half'])
    await pending
  })

  it('makes late chunks inert even from an adapter that ignores abort', async () => {
    let push: (text: string) => void = () => undefined
    let finish: () => void = () => undefined
    const source: StreamSource = {
      abort: () => undefined, // deliberately ignores abort
      stream: () => (async function* () {
        for (;;) {
          const next = await new Promise<string | null>((resolve) => {
            push = resolve
            finish = () => resolve(null)
          })
          if (next === null) return
          yield { type: 'text' as const, content: next }
        }
      })(),
    }
    const controller = createChatController({ adapter: { createSource: () => source } })
    const pending = controller.send('q')
    await settle()
    push('kept')
    await settle()
    controller.stop()
    const stopped = controller.getState()
    await pending // resolves although the adapter never ends its stream
    push(' late')
    await settle()
    finish()
    await settle()
    expect(controller.getState()).toBe(stopped)
    expect(stopped.messages.at(-1)?.content).toBe('kept')
  })

  it('keeps an error chunk arriving after stop inert (no error state)', async () => {
    const stream = manualStream()
    const { controller } = setup([stream.step])
    const pending = controller.send('q')
    controller.stop()
    await stream.push({ type: 'error', content: 'late failure' })
    await pending
    expect(controller.getState().status).toBe('idle')
    expect(controller.getState().error).toBeNull()
  })

  it('before the source exists (during retrieval), stop prevents createSource entirely', async () => {
    let release: (docs: []) => void = () => undefined
    const { controller, adapter } = setup(['never'], { retriever: { retrieve: () => new Promise((resolve) => (release = resolve)) } })
    const pending = controller.send('q')
    controller.stop()
    release([])
    await pending
    await settle()
    expect(adapter.calls).toHaveLength(0)
    expect(controller.getState().status).toBe('idle')
  })

  it('a stopped pre-source turn cannot touch a later send', async () => {
    let release: (docs: []) => void = () => undefined
    let first = true
    const { controller } = setup(['second answer'], {
      retriever: {
        retrieve: () => {
          if (!first) return []
          first = false
          return new Promise((resolve) => (release = resolve))
        },
      },
    })
    const stale = controller.send('one')
    await settle() // the first turn is now waiting in its retriever
    expect(first).toBe(false)
    await controller.send('two')
    release([])
    await stale
    expect(contents(controller.getState()).slice(2)).toEqual([['user', 'two', 'complete'], ['assistant', 'second answer', 'complete']])
  })

  it('settles a running tool call as an error and ignores the tool completing later', async () => {
    let finishTool: (value: string) => void = () => undefined
    const { controller } = setup(
      [[{ type: 'tool_call', toolCall: { id: 't1', name: 'slow', args: '{}' } }], 'unused'],
      { tools: [{ name: 'slow', execute: () => new Promise<string>((resolve) => (finishTool = resolve)) }] },
    )
    const pending = controller.send('q')
    await settle()
    expect(controller.getState().messages[1]?.toolCalls?.[0]?.status).toBe('running')
    controller.stop()
    await pending
    const stopped = controller.getState()
    expect(stopped.messages[1]?.toolCalls?.[0]).toMatchObject({ status: 'error', error: STOPPED_TOOL_CALL_ERROR })
    finishTool('done late')
    await settle()
    expect(controller.getState()).toBe(stopped)
  })

  it('with nothing running changes nothing and notifies no one', () => {
    const { controller } = setup([])
    let notified = 0
    controller.subscribe(() => void (notified += 1))
    const before = controller.getState()
    controller.stop()
    expect(controller.getState()).toBe(before)
    expect(notified).toBe(0)
  })
})
