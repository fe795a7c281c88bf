import { commandRoute, defineChat } from '../../../src/index.js'
import type { ChatDefinition } from '../../../src/index.js'
import { defineComponent, defineComponents, standardCatalog } from '../../../src/components/index.js'
import * as z from 'zod/mini'

// zod/mini (the catalog's own schema library) as the props' Standard Schema
const orderProps = z.object({ order: z.string() })
/** Drawn by the page's own view (`componentViews`). */
const orderCard = defineComponent({ key: 'order-card', props: orderProps, events: { open: 'none' }, accessibility: { role: 'article' }, fallback: (props) => `Order ${props.order}` })
/** In the registry, with no view anywhere: its fallback summary. */
const giftCard = defineComponent({ key: 'gift-card', props: orderProps, accessibility: { role: 'article' }, fallback: (props) => `Gift card for order ${props.order}` })
const components = defineComponents([...standardCatalog, orderCard, giftCard])

/**
 * The catalog page's workflow (test/svelte/catalog-browser.test.ts): `/catalog` answers with every
 * standard component that is not a choice list (the scenario suite has that one), an app's own
 * component and one nobody draws. No agent: everything else gets the fallback answer.
 */
export function catalogDefinition(): ChatDefinition {
  return defineChat({
    id: 'svelte-catalog',
    chat: {},
    components,
    conversation: {
      initial: 'idle',
      states: { idle: {} },
      routes: [
        commandRoute({
          id: 'catalog',
          command: '/catalog',
          response: () => [
            'Here is everything.',
            components.render('button-group', { label: 'Pick a speed', buttons: [{ id: 'express', label: 'Express', variant: 'primary' }, { id: 'standard', label: 'Standard' }] }, { instanceId: 'speed' }),
            components.render('confirmation', { title: 'Cancel the order?', body: 'It has not shipped yet.', destructive: true }, { instanceId: 'cancel' }),
            components.render('form', { title: 'Address', fields: [{ name: 'street', label: 'Street', kind: 'text', required: true }, { name: 'floor', label: 'Floor', kind: 'number' }, { name: 'gift', label: 'Gift wrap', kind: 'checkbox' }, { name: 'slot', label: 'Slot', kind: 'select', options: [{ value: 'am', label: 'Morning' }, { value: 'pm', label: 'Afternoon' }] }] }, { instanceId: 'address' }),
            components.render('progress', { label: 'Packing', value: 0.4 }),
            components.render('source-list', { sources: [{ title: 'Shipping policy', url: 'https://example.com/shipping' }, { title: 'Help', url: '/help' }] }),
            components.render('link-card', { title: 'Track the parcel', href: 'https://example.com/track', description: 'Live carrier status' }),
            components.render('tool-call', { name: 'lookup_order', args: { orderId: '12345' }, status: 'complete', result: 'Found' }),
            components.render('table', { caption: 'Items', columns: [{ key: 'item', label: 'Item' }, { key: 'gift', label: 'Gift' }], rows: [{ item: 'Card', gift: true }, { item: 'Box', gift: null }] }),
            components.render('file-attachment', { name: 'label.pdf', url: '/files/label.pdf', mimeType: 'application/pdf', size: 2048 }),
            components.render('approval-request', { token: 'tok-1', title: 'Refund 4.90 EUR', action: { name: 'refund_order', input: { orderId: '12345' } } }, { instanceId: 'refund' }),
            components.render('error-notice', { title: 'Carrier unreachable', message: 'The tracking service timed out.', code: 'ETIMEDOUT', retryable: true }, { instanceId: 'carrier' }),
            components.render('order-card', { order: '12345' }, { instanceId: 'order' }),
            components.render('gift-card', { order: '12345' }),
          ],
        }),
      ],
      fallback: { response: 'Noted.' },
    },
  })
}
