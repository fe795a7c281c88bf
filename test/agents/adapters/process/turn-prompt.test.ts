import { describe, expect, it } from 'vitest'
import type { Message } from '../../../../src/contract/message.js'
import { turnPrompt } from '../../../../src/agents/process/turn-prompt.js'

const at = new Date(0)
const msg = (role: Message['role'], content: string, extra: Partial<Message> = {}): Message => ({ id: `${role}-${content}`, role, content, status: 'complete', createdAt: at, ...extra })

describe('turnPrompt', () => {
  it('sends only the newest user message, skipping the streaming assistant placeholder', () => {
    const messages = [msg('user', 'first'), msg('assistant', 'reply'), msg('user', '--second'), msg('assistant', '', { status: 'streaming' })]
    const frozen = structuredClone(messages)
    expect(turnPrompt({ messages })).toEqual({ kind: 'prompt', text: '--second' })
    expect(messages).toEqual(frozen)
  })

  it('falls back to text parts when content is empty', () => {
    const messages = [msg('user', '', { parts: [{ type: 'text', text: 'a' }, { type: 'image', source: 'x.png' }, { type: 'text', text: 'b' }] })]
    expect(turnPrompt({ messages })).toEqual({ kind: 'prompt', text: 'a\nb' })
  })

  it('recognises a tool-loop follow-up request (tool messages after the user message)', () => {
    const messages = [msg('user', 'run it'), msg('assistant', ''), msg('tool', 'output', { toolCallId: 't1' }), msg('assistant', '', { status: 'streaming' })]
    expect(turnPrompt({ messages })).toEqual({ kind: 'continuation' })
  })

  it('reports a request without user text as missing', () => {
    expect(turnPrompt({ messages: [] })).toEqual({ kind: 'missing' })
    expect(turnPrompt({ messages: [msg('system', 'be nice'), msg('user', '   ')] })).toEqual({ kind: 'missing' })
  })
})
