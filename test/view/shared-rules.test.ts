import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buttonGroupProps } from '../../src/components/catalog-schemas.js'
import type { ComponentCatalog, ComponentPart } from '../../src/contract/component-part.js'
import { ChatrailError } from '../../src/contract/errors.js'
import { checkedProps, isStandardKey } from '../../src/view/component-props.js'
import { FOLLOW_SLACK_PX, cardArrivals, dialogCardId, followScrollTop, isFollowing, lastUserMessageId, newlyArrivedCards } from '../../src/view/follow-scroll.js'
import { noChatError } from '../../src/view/no-chat-error.js'
import { reasoningOf } from '../../src/view/reasoning.js'
import { finishedReplies } from '../../src/view/reply-announcements.js'
import { sourceLabel } from '../../src/view/source-label.js'
import { OUTPUT_CHAR_LIMIT, OUTPUT_LINE_LIMIT, formatToolArgs, truncatedHead } from '../../src/view/tool-output.js'
import { message, questionDialog } from '../react/dialogs.js'

/**
 * The rules every binding (React, Vue, Svelte, the serve page) draws with, from chatrail/view: one
 * implementation each, tested once here (moved from test/react, where React had them to itself).
 */

describe('follow scroll rules', () => {
  it('counts a reader within the slack of the bottom as following', () => {
    expect(isFollowing({ scrollTop: 600, scrollHeight: 1000, clientHeight: 400 })).toBe(true)
    expect(isFollowing({ scrollTop: 600 - FOLLOW_SLACK_PX, scrollHeight: 1000, clientHeight: 400 })).toBe(true)
    expect(isFollowing({ scrollTop: 600 - FOLLOW_SLACK_PX - 1, scrollHeight: 1000, clientHeight: 400 })).toBe(false)
  })

  it('only a not-yet-seen pending tool id counts as an arriving card', () => {
    const items = [
      { kind: 'message' as const, key: 'm1', message: message('m1', 'user', 'x') },
      { kind: 'dialog' as const, key: 'dialog:t1', dialog: questionDialog('t1'), pending: true },
      { kind: 'dialog' as const, key: 'dialog:t2', dialog: questionDialog('t2'), pending: false },
    ]
    expect(newlyArrivedCards(items, new Set())).toEqual(['t1'])
    expect(newlyArrivedCards(items, new Set(['t1']))).toEqual([])
  })

  it('a list remembers the cards it showed: each change names the first newly arrived one, once', () => {
    const arrivals = cardArrivals()
    const card = (toolId: string, pending = true) => ({ kind: 'dialog' as const, key: `dialog:${toolId}`, dialog: questionDialog(toolId), pending })
    expect(arrivals([card('t1', false)])).toBeUndefined()
    expect(arrivals([card('t1', false), card('t2'), card('t3')])).toBe('t2')
    expect(arrivals([card('t1', false), card('t2'), card('t3')])).toBeUndefined()
    expect(arrivals([card('t2'), card('t3'), card('t4')])).toBe('t4')
    // another list keeps its own memory
    expect(cardArrivals()([card('t2')])).toBe('t2')
  })

  it('a following reader goes to the top of a newly arrived card on the page, else to the bottom', () => {
    const box = (top: number) => ({ getBoundingClientRect: () => ({ top }) })
    const cards = new Map([[dialogCardId('t1'), box(700)]])
    const list = { scrollTop: 300, scrollHeight: 2000, clientHeight: 400, ...box(100), ownerDocument: { getElementById: (id: string) => cards.get(id) ?? null } }
    // the card's top is 600 px below the list's top: scroll by that much
    expect(followScrollTop(list, 't1')).toBe(900)
    expect(followScrollTop(list, 'not-drawn')).toBe(2000)
    expect(followScrollTop(list, undefined)).toBe(2000)
  })

  it('the newest user message is the one whose arrival resumes following', () => {
    const items = [
      { kind: 'message' as const, key: 'u1', message: message('u1', 'user', 'a') },
      { kind: 'message' as const, key: 'a1', message: message('a1', 'assistant', 'b') },
      { kind: 'message' as const, key: 'u2', message: message('u2', 'user', 'c') },
      { kind: 'dialog' as const, key: 'dialog:t1', dialog: questionDialog('t1'), pending: true },
    ]
    expect(lastUserMessageId(items)).toBe('u2')
    expect(lastUserMessageId(items.slice(1, 2))).toBeUndefined()
  })

  it('card ids are valid selectors for any tool id', () => {
    expect(dialogCardId('toolu_01:a/b')).toBe('chatrail-dialog-toolu_01_a_b')
    fc.assert(fc.property(fc.string(), (toolId) => {
      expect(dialogCardId(toolId)).toMatch(/^chatrail-dialog-[A-Za-z0-9_-]*$/)
    }))
  })
})

describe('finishedReplies (the live region reads a reply once, whole)', () => {
  it('only assistant replies that stopped streaming and were not read yet', () => {
    const messages = [message('u', 'user', 'q'), message('a1', 'assistant', 'done'), message('a2', 'assistant', 'half', { status: 'streaming' }), message('a3', 'assistant', '')]
    expect(finishedReplies(messages, new Set()).map((m) => m.id)).toEqual(['a1'])
    expect(finishedReplies(messages, new Set(['a1']))).toEqual([])
  })
})

describe('tool cards: formatToolArgs and truncatedHead', () => {
  it('shows arguments as two-space JSON, and one that cannot be serialized as text', () => {
    expect(formatToolArgs({ order: 'A1', items: [1] })).toBe('{\n  "order": "A1",\n  "items": [\n    1\n  ]\n}')
    expect(formatToolArgs({})).toBe('{}')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(formatToolArgs(cyclic)).toBe('[object Object]')
  })

  it('truncatedHead is undefined when the text fits, else a proper prefix within both limits', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 3_000 }), (text) => {
      const head = truncatedHead(text)
      const fits = text.length <= OUTPUT_CHAR_LIMIT && text.split('\n').length <= OUTPUT_LINE_LIMIT
      if (fits) {
        expect(head).toBeUndefined()
        return
      }
      expect(head).toBeDefined()
      expect(text.startsWith(head ?? '')).toBe(true)
      expect((head ?? '').length).toBeLessThan(text.length)
      expect((head ?? '').length).toBeLessThanOrEqual(OUTPUT_CHAR_LIMIT)
      expect((head ?? '').split('\n').length).toBeLessThanOrEqual(OUTPUT_LINE_LIMIT)
    }))
  })
})

describe('message extras: reasoningOf and sourceLabel', () => {
  it('reads the reasoning the controller gathered, or nothing', () => {
    expect(reasoningOf({ metadata: { reasoning: 'Checked the order first.' } })).toBe('Checked the order first.')
    expect(reasoningOf({ metadata: { reasoning: 42 } })).toBe('')
    expect(reasoningOf({})).toBe('')
  })

  it('names a source by its title, else its host, else the url as written', () => {
    expect(sourceLabel({ url: 'https://docs.example.com/refunds', title: 'Refund policy' })).toBe('Refund policy')
    expect(sourceLabel({ url: 'https://docs.example.com/refunds', title: '  ' })).toBe('docs.example.com')
    expect(sourceLabel({ url: 'not a url' })).toBe('not a url')
  })
})

describe('component props: checkedProps', () => {
  const part = (componentKey: string, props: unknown): ComponentPart => ({ type: 'component', componentKey, instanceId: 'c1', props } as ComponentPart)
  const buttons = { buttons: [{ id: 'yes', label: 'Yes' }] }

  it('without a registry draws only the standard keys, with props that pass the standard schema', () => {
    expect(isStandardKey('button-group')).toBe(true)
    expect(isStandardKey('toString')).toBe(false)
    expect(buttonGroupProps['~standard'].validate(buttons)).not.toHaveProperty('issues')
    expect(checkedProps(part('button-group', buttons), undefined)).toEqual({ ok: true, props: buttons })
    expect(checkedProps(part('button-group', { buttons: 'no' }), undefined)).toEqual({ ok: false })
    expect(checkedProps(part('my-card', {}), undefined)).toEqual({ ok: false })
  })

  it('with a registry, what it refuses is not drawn, and what it resolves is (a standard key still checked)', () => {
    const catalog = (ok: boolean, props?: unknown): ComponentCatalog => ({ resolve: () => (ok ? { ok: true, value: props === undefined ? {} : { props } } : { ok: false }) }) as unknown as ComponentCatalog
    expect(checkedProps(part('my-card', { a: 1 }), catalog(true, { a: 2 }))).toEqual({ ok: true, props: { a: 2 } })
    expect(checkedProps(part('my-card', { a: 1 }), catalog(false))).toEqual({ ok: false })
    expect(checkedProps(part('button-group', buttons), catalog(true, { buttons: 3 }))).toEqual({ ok: false })
  })
})

describe('noChatError (a chat part with no chat, in every binding)', () => {
  it('says which part and how the binding passes a chat', () => {
    const error = noChatError('MessageList', 'chat={useChatSession(definition)}')
    expect(error).toBeInstanceOf(ChatrailError)
    expect(error.code).toBe('NO_CHAT_SESSION')
    expect(error.message).toContain('<MessageList> has no chat')
    expect(error.hint).toBe('Render it inside <ChatSession>, or pass chat={useChatSession(definition)}.')
  })
})
