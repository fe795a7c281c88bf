import { commandRoute, defineChat, patternRoute, type ChatDefinition } from '../../src/index.js'

/** A small delivery-booking flow: `/start`, then "deliver on YYYY-MM-DD". Anything else gets the fallback. */
export type DeliveryContext = { deliveryDate?: string }

export function deliveryChat(revision = 1): ChatDefinition<DeliveryContext> {
  return defineChat<DeliveryContext>()({
    id: 'delivery',
    revision,
    chat: {},
    conversation: {
      initial: 'idle',
      context: {},
      states: {
        idle: { on: { start: 'asking' } },
        asking: { on: { date: 'booked' } },
        booked: { on: { start: 'asking' } },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which day should we deliver?' }),
        patternRoute({
          id: 'date', pattern: /^deliver on (?<deliveryDate>\d{4}-\d{2}-\d{2})$/, event: 'date', assign: true,
          response: (_input, ctx) => `Booked for ${ctx.match?.groups.deliveryDate}.`,
        }),
      ],
      fallback: { response: 'Type /start to book a delivery.' },
    },
  })
}
