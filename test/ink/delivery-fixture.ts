import { defineChat, eventRoute } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

/**
 * A workflow whose UI events are named unlike the machine event they fire: the buttons
 * `standard` and `express` both fire `chooseDelivery` (issue 21: it showed no keys and was stuck).
 */
export function deliveryChat() {
  return defineChat({
    id: 'ink-delivery',
    chat: { adapter: scriptedAdapter(['unused']) },
    conversation: {
      initial: 'shipping',
      context: { speed: '' },
      states: {
        shipping: { on: { chooseDelivery: 'paid', cancel: 'cancelled' } },
        paid: { final: true },
        cancelled: { final: true },
      },
      routes: [
        eventRoute({ id: 'standard-button', uiEvent: 'standard', event: 'chooseDelivery', response: { text: 'Standard delivery it is.', assign: { speed: 'standard' } } }),
        eventRoute({ id: 'express-button', uiEvent: 'express', event: 'chooseDelivery', response: { text: 'Express delivery it is.', assign: { speed: 'express' } } }),
      ],
    },
  })
}
