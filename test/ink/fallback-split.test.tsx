import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, defineChat } from '../../src/index.js'
import { InkChat } from '../../renderers/ink/ink-chat.js'
import { appendSettled } from '../../renderers/ink/printed-log.js'
import type { Message } from '../../src/contract/message.js'
import { waitForFrame } from './frames.js'
import { keys } from './keys.js'

/**
 * Issue 31 item 4: an agent that fails after some text, in a definition whose fallback answers
 * then. The partial answer and the fallback's answer arrive as one message; Ink printed them as one
 * paragraph. Now the partial answer ends with its own red error line saying what failed, and the
 * fallback's answer is a reply of its own below it.
 */

afterEach(() => cleanup())

const FALLBACK = 'Sorry, I cannot answer that now. Type /start to begin.'

/** An agent that streams some text, then fails. */
const failingAgent: AdapterFactory = {
  createSource: () => ({
    abort: () => undefined,
    stream: async function* (): AsyncGenerator<StreamChunk> {
      yield { type: 'text', content: 'Let me check the carrier' }
      await new Promise((resolve) => setTimeout(resolve, 5))
      yield { type: 'error', content: 'carrier API timed out' }
    },
  }),
}

const definition = defineChat({
  id: 'ink-fallback-split',
  chat: { adapter: failingAgent },
  conversation: {
    initial: 'start',
    states: { start: { on: { begin: 'start' } } },
    routes: [commandRoute({ id: 'begin', command: '/start', event: 'begin', response: 'Hi!' })],
    fallback: { response: FALLBACK },
  },
})

describe('an agent that fails after some text, answered by the fallback', () => {
  it('prints the partial answer with its error line, then the fallback answer as its own reply', async () => {
    const r = render(<InkChat definition={definition} backend="scripted" />)
    r.stdin.write('where is my parcel?')
    await new Promise((resolve) => setTimeout(resolve, 15))
    r.stdin.write(keys.enter)
    const frame = await waitForFrame(r, (f) => f.includes(FALLBACK))
    const partial = frame.indexOf('Let me check the carrier\n✗ the agent failed')
    expect(partial).toBeGreaterThan(0)
    expect(frame).toMatch(/✗ the agent failed \(\w+\); the fallback answered below\n/)
    // the fallback's answer is a reply of its own, after the error line, not joined to the partial text
    const fallback = frame.indexOf(`bot · fallback\n${FALLBACK}`)
    expect(fallback).toBeGreaterThan(partial)
    expect(frame).not.toContain(`carrier${FALLBACK}`)
  })
})

describe('appendSettled with failedAt', () => {
  const message = (content: string, status: Message['status'] = 'complete'): Message => ({ id: 'a1', role: 'assistant', content, status, createdAt: new Date(0) })

  it('splits a reply at the failure into a failed partial answer and the fallback answer; prints each once', () => {
    const failedAt = new Map([['a1', 7]])
    const printed = appendSettled([], [message('Partial fallback')], () => 'fallback', [], (m) => (m.status === 'error' ? 'agent failed' : undefined), failedAt)
    expect(printed.map((entry) => entry.kind === 'message' && [entry.message.content, entry.message.status, entry.failure ?? null, entry.label ?? null])).toEqual([
      ['Partial', 'error', 'agent failed', null],
      [' fallback', 'complete', null, 'fallback'],
    ])
    expect(appendSettled(printed, [message('Partial fallback')], () => 'fallback', [], undefined, failedAt)).toBe(printed)
  })

  it('leaves a reply alone when the failure came before any text, after all of it, or the reply itself failed', () => {
    for (const [content, at, status] of [['All fallback', 0, 'complete'], ['Partial', 7, 'complete'], ['Partial then more', 7, 'error']] as const) {
      const printed = appendSettled([], [message(content, status)], undefined, [], undefined, new Map([['a1', at]]))
      expect(printed.map((entry) => entry.kind === 'message' && entry.message.content)).toEqual([content])
    }
  })
})
