import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ComponentPart } from '../../src/contract/component-part.js'
import { interactionOf } from '../../src/conversation/interaction-judge.js'
import { createChatBinding, createChatView, loadComponentRules } from '../../src/view/index.js'
import type { ChatView } from '../../src/view/index.js'
import { countingAdapter } from '../react/support-chat.js'
import { choiceChat } from './component-choice-chat.js'

/**
 * A component interaction is submitted at most once, whatever the clicks: any number of them, on
 * any choice, from views created and thrown away in between (a remount or a reload of the view over
 * the same session), some awaited and some left in flight. "Submitted" is a user message carrying
 * the interaction in the history the session keeps.
 */

beforeAll(async () => { await loadComponentRules() })

type Step = { kind: 'click'; choice: 'reship' | 'refund'; wait: boolean } | { kind: 'reload' } | { kind: 'settle' }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('click' as const), choice: fc.constantFrom('reship' as const, 'refund' as const), wait: fc.boolean() }),
  fc.constant({ kind: 'reload' as const }),
  fc.constant({ kind: 'settle' as const }),
)

describe('createChatView: a component interaction', () => {
  it('is submitted at most once for any interleaving of clicks and reloads, and exactly once when clicked at all', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const adapter = countingAdapter('agent')
        const binding = createChatBinding(choiceChat(adapter), { lint: false })
        let view: ChatView = createChatView(binding)
        let off = view.subscribe(() => undefined)
        await view.send('/pick')
        const pending = view.getSnapshot().pendingComponent
        expect(pending).toBeDefined()
        const { messageId, part } = pending as { messageId: string; part: ComponentPart }
        const inFlight: Array<Promise<unknown>> = []
        let clicked = false
        for (const next of steps) {
          if (next.kind === 'reload') {
            off()
            view = createChatView(binding)
            off = view.subscribe(() => undefined)
          } else if (next.kind === 'settle') {
            await Promise.all(inFlight)
          } else {
            clicked = true
            const sent = view.interact(messageId, part, 'select', next.choice)
            if (next.wait) await sent
            else inFlight.push(sent)
          }
        }
        await Promise.all(inFlight)
        const submitted = binding.controller.getState().messages.filter((message) => {
          const interaction = interactionOf(message)
          return interaction?.messageId === messageId && interaction.instanceId === part.instanceId
        })
        expect(submitted.length).toBe(clicked ? 1 : 0)
        expect(view.getSnapshot().componentAnswers.has(`${messageId}:${part.instanceId}`)).toBe(clicked)
        expect(adapter.calls()).toBe(0)
        off()
        binding.release()
      }),
      { numRuns: 60 },
    )
  })
})
