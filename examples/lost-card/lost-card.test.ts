import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession } from '../../src/index.js'
import { defineConversationTests } from '../../src/testing/vitest.js'
import { createLostCard } from './definition.js'

defineConversationTests('*.conv.yaml', { cwd: dirname(fileURLToPath(import.meta.url)), replayCheck: true })

describe('lost-card example', () => {
  it('a hung lookup answers the fallback after routeTimeoutMs and aborts the lookup’s signal; a stop aborts it at once', async () => {
    let seen: AbortSignal | undefined
    const definition = createLostCard((_digits, signal) => {
      seen = signal
      return new Promise(() => {})
    })
    const session = createChatSession(definition, { lint: false, start: { state: 'lookup', context: { digits: '4821', postcode: 'SW1A 1AA', delivery: 'standard' } } })
    const controller = createChatController(session.chat)
    controller.subscribe(() => session.sync(controller.getState().messages))
    const sending = controller.send('order')
    await expect.poll(() => seen).toBeDefined()
    controller.stop()
    await sending
    expect(seen?.aborted).toBe(true)
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'order', outcome: 'aborted' })
    expect(session.getSnapshot().state).toBe('lookup')
  })
})
