import { describe, expect, it } from 'vitest'
import { createChatBinding, createChatView } from '../../src/view/index.js'
import { createLazyChatView } from '../../src/view/lazy-chat-view.js'
import { lazyPresentationRules } from '../../src/view/presentation-loader.js'
import { countingAdapter, supportChat } from '../react/support-chat.js'

/**
 * `createLazyChatView` (chatrail/react's mount): the presentation rules (event bar, chips, failure,
 * regenerable reply, versions walked, confirmations) load on the first subscribe, and the view then
 * shows what `createChatView` shows at once. This file runs in a process of its own, so the rules
 * are not in before its first test.
 */
describe('createLazyChatView: the presentation rules load on the first subscribe', () => {
  it('offers nothing before they are in, then the same snapshot fields as createChatView', async () => {
    const binding = () => createChatBinding(supportChat(countingAdapter('agent reply')), { lint: false })
    const lazy = createLazyChatView(binding())
    expect('presentationOf' in lazyPresentationRules.current()).toBe(false)
    const before = lazy.getSnapshot()
    expect(before.presentationReady).toBe(false)
    expect(before.suggestions).toEqual([])
    expect(before.eventBar.buttons).toEqual([])
    expect(before.failure).toBeUndefined()
    expect(before.lifecycle.canRetry).toBe(false)

    let notified = 0
    const off = lazy.subscribe(() => { notified += 1 })
    await lazyPresentationRules.load()
    const after = lazy.getSnapshot()
    expect(notified).toBeGreaterThan(0)
    expect(after).not.toBe(before)
    expect(after.presentationReady).toBe(true)

    const eager = createChatView(binding())
    const offEager = eager.subscribe(() => undefined)
    expect(after.suggestions).toEqual(eager.getSnapshot().suggestions)
    expect(after.suggestions.length).toBeGreaterThan(0)
    expect(eager.getSnapshot().presentationReady).toBe(true)

    await lazy.send('/start')
    await eager.send('/start')
    const { eventBar, lifecycle, regenerable } = lazy.getSnapshot()
    expect(eventBar.buttons.map((button) => button.label)).toEqual(eager.getSnapshot().eventBar.buttons.map((button) => button.label))
    expect(eventBar.buttons.length).toBeGreaterThan(0)
    expect(lifecycle.canRetry).toBe(true)
    expect(regenerable).toBe(lazy.getSnapshot().messages.at(-1)?.id)
    off()
    offEager()
    lazy.dispose()
    eager.dispose()
  })

  it('approve and reject wait for the rules, and say so when the view has no approval source', async () => {
    const view = createLazyChatView(createChatBinding(supportChat(countingAdapter('agent reply')), { lint: false }))
    await expect(view.approve('token')).rejects.toMatchObject({ code: 'NO_APPROVAL_SOURCE' })
    view.dispose()
  })
})
