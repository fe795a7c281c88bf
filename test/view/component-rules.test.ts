import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import type { ComponentPart } from '../../src/contract/component-part.js'
import { countingAdapter } from '../react/support-chat.js'
import { supportChat } from '../react/support-chat.js'
import { choiceChat } from './component-choice-chat.js'
import { eventually } from '../server/support/harness.js'
import { clickKeyOf } from '../../src/view/chat-view-store.js'
import { componentKeyOf } from '../../src/view/component-key.js'

/**
 * The view's component rules load the first time a chat shows a component (a fresh copy of
 * chatrail/view here, `vi.resetModules`: another file of the run may have loaded them already).
 * Until they are in, no component is offered and a click waits for them; nothing is sent twice meanwhile.
 */

describe('the component rules, loaded on first use', () => {
  it('a chat without components never loads them; the first component does, and the view shows the picker once they are in', async () => {
    vi.resetModules()
    const { componentRules, createChatBinding, createChatView } = await import('../../src/view/index.js')
    const plain = createChatView(createChatBinding(supportChat(countingAdapter()), { lint: false }))
    const offPlain = plain.subscribe(() => undefined)
    await plain.send('/start')
    expect(plain.getSnapshot().componentsReady).toBe(true)
    expect(componentRules()).toBeUndefined()
    offPlain()

    const view = createChatView(createChatBinding(choiceChat(countingAdapter()), { lint: false }))
    let notified = 0
    const off = view.subscribe(() => { notified += 1 })
    await view.send('/pick')
    const before = view.getSnapshot()
    expect(before.componentsReady).toBe(false)
    expect(before.pendingComponent).toBeUndefined()
    const part = before.messages.at(-1)?.parts?.find((item): item is ComponentPart => (item as { type?: unknown }).type === 'component') as ComponentPart
    const messageId = before.messages.at(-1)?.id as string
    // two clicks while the rules load: the second finds the first in flight
    const first = view.interact(messageId, part, 'select', 'refund')
    const second = view.interact(messageId, part, 'select', 'reship')
    expect(await second).toBe(false)
    expect(await first).toBe(true)
    await eventually(() => view.getSnapshot().componentsReady)
    expect(componentRules()).toBeDefined()
    expect(notified).toBeGreaterThan(0)
    expect(view.getSnapshot().componentAnswers.get(`${messageId}:next`)).toEqual({ event: 'select', value: 'refund' })
    expect(view.getSnapshot().messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['/pick', 'Refund'])
    off()
  })
})

describe("the store's click key", () => {
  it('is the key the component rules give history\'s answers (componentKeyOf), for any ids', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (messageId, instanceId) => {
      expect(clickKeyOf(messageId, instanceId)).toBe(componentKeyOf(messageId, instanceId))
    }))
  })
})
