import * as z from 'zod'
import { commandRoute, defineChat, eventRoute, route, textRoute, type ChatDefinition } from '../../src/index.js'

/**
 * "Replace my lost card", the workflow of issue 19's "Done when", written with modeling v2:
 * greeting → identify (a form: card digits and postcode, validated, re-prompted, handed to a
 * person after three bad tries) → confirm the address (a guarded transition that re-prompts) →
 * choose delivery (buttons) → look up the replacement (an async route, bounded by
 * `routeTimeoutMs`) → done (final, with Start over). `/help` and `/cancel` are declared once.
 *
 * `lookupCard` stands in for a real service; pass your own to `createLostCard`.
 */

export type LostCardContext = {
  digits?: string
  postcode?: string
  addressConfirmed?: boolean
  delivery?: 'standard' | 'express'
  tracking?: string
  formAttempts?: number
}

export type CardLookup = (digits: string, signal: AbortSignal) => Promise<{ tracking: string }>

const lookupCardOffline: CardLookup = async (digits) => ({ tracking: `LC-${digits}` })

export function createLostCard(lookupCard: CardLookup = lookupCardOffline): ChatDefinition<LostCardContext> {
  return defineChat<LostCardContext>()({
    id: 'lost-card',
    chat: {},
    conversation: {
      initial: 'greeting',
      context: {},
      routeTimeoutMs: 5_000,
      // Said once: every non-final state can be cancelled (greeting has nothing to cancel).
      on: { cancel: 'greeting' },
      states: {
        greeting: { on: { start: 'identify' }, ignoreGlobal: true },
        identify: {
          description: 'Who are you? (card digits, postcode)',
          on: { identified: 'confirmAddress', stuck: 'human' },
          form: {
            slots: {
              digits: { prompt: 'What are the last 4 digits of the lost card?', validate: z.string().regex(/^\d{4}$/), reprompt: 'Please type exactly 4 digits, e.g. 1234.', maxAttempts: 3 },
              postcode: {
                prompt: 'And your postcode?',
                validate: (input) => (/^[A-Z0-9]{2,4} ?[A-Z0-9]{3}$/i.test(input) ? input.toUpperCase() : undefined),
                reprompt: 'That does not look like a postcode. Try again, e.g. SW1A 1AA.',
                maxAttempts: 3,
              },
            },
            done: 'identified',
            response: (ctx) => `Thanks. We will send the new card (ending ${ctx.digits ?? '?'}) to the address at ${ctx.postcode ?? '?'}. Is that address right? (yes / no)`,
            exhausted: 'stuck',
            exhaustedResponse: 'I cannot verify that here. A person will take over.',
          },
        },
        confirmAddress: {
          on: { confirm: { target: 'chooseDelivery', guard: ({ context }) => context.postcode !== undefined }, wrongAddress: 'human' },
        },
        chooseDelivery: { on: { chosen: 'lookup' } },
        lookup: { on: { found: 'done' } },
        human: { on: { resolve: 'done' } },
        done: { final: true },
      },
      routes: [
        textRoute({ id: 'greet', texts: ['hi', 'hello'], response: 'Hello! Lost your card? Type /start to replace it.' }),
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Let us replace your card.' }),
        commandRoute({ id: 'help', command: '/help', response: (_input, ctx) => `You are at "${ctx.state}". /cancel stops, /start begins.` }),
        commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: { text: 'Cancelled. Nothing was ordered.', assign: { digits: undefined, postcode: undefined, delivery: undefined, addressConfirmed: undefined } } }),
        textRoute({
          id: 'address-yes',
          texts: ['yes', 'that is right'],
          event: 'confirm',
          refuse: 'I still need your postcode before I can ship anything.',
          response: { text: 'Standard (free, 5 days) or express (2 days)?', assign: { addressConfirmed: true } },
        }),
        textRoute({ id: 'address-no', texts: ['no', 'wrong address'], event: 'wrongAddress', response: 'A person will update your address with you.' }),
        eventRoute({ id: 'standard', uiEvent: 'standard', event: 'chosen', response: { text: 'Standard delivery. Type "order" to place it.', assign: { delivery: 'standard' } } }),
        eventRoute({ id: 'express', uiEvent: 'express', event: 'chosen', response: { text: 'Express delivery. Type "order" to place it.', assign: { delivery: 'express' } } }),
        route({
          id: 'order',
          match: (input) => input.trim().toLowerCase() === 'order',
          event: 'found',
          states: ['lookup'],
          response: async (_input, ctx) => {
            const { tracking } = await lookupCard(ctx.context.digits ?? '', ctx.signal)
            return { text: `Ordered. Tracking number ${tracking}.`, assign: { tracking } }
          },
        }),
        eventRoute({ id: 'resolve', uiEvent: 'resolve', event: 'resolve', response: 'Sorted. Goodbye!' }),
        commandRoute({ id: 'start-over', command: '/start', restart: true, states: ['done'], response: 'Starting over.' }),
        eventRoute({ id: 'start-over-button', uiEvent: 'start-over', restart: true, states: ['done'], response: 'Starting over.' }),
      ],
      fallback: { response: 'Sorry, I did not get that. Type /help.' },
    },
  })
}

export const lostCard: ChatDefinition<LostCardContext> = createLostCard()

export default lostCard
