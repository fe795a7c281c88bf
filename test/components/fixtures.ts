import { ComponentError } from '../../src/components/index.js'
import type { PropsOf, standardCatalog } from '../../src/components/index.js'

type Standard = (typeof standardCatalog)[number]

/** Valid props for each standard component (the catalog test and the renderers' tests share them). */
export const STANDARD_FIXTURES: { readonly [K in Standard['key']]: PropsOf<Extract<Standard, { key: K }>> } = {
  'button-group': { label: 'Next step', buttons: [{ id: 'ship', label: 'Ship it' }, { id: 'hold', label: 'Hold', disabled: true }] },
  'choice-list': { prompt: 'What should happen to the lost card?', choices: [{ id: 'reship', label: 'Reship', description: 'free, 3 days' }, { id: 'refund', label: 'Refund', action: { name: 'refund', input: { order: '12345' } } }] },
  form: { title: 'Shipping address', fields: [{ name: 'street', label: 'Street', kind: 'text', required: true }, { name: 'zip', label: 'ZIP', kind: 'number' }, { name: 'express', label: 'Express', kind: 'checkbox' }, { name: 'carrier', label: 'Carrier', kind: 'select', options: [{ value: 'dhl', label: 'DHL' }] }] },
  confirmation: { title: 'Cancel the order?', body: 'This cannot be undone.', destructive: true },
  progress: { label: 'Reshipping', value: 0.4 },
  'source-list': { sources: [{ title: 'Shipping policy', url: '/help/shipping' }, { title: 'Carrier status', url: 'https://status.example.com/track' }] },
  'link-card': { title: 'Track your parcel', href: 'https://track.example.com/12345' },
  'error-notice': { title: 'Payment failed', message: 'The card was declined.', code: 'card_declined', retryable: true },
  'tool-call': { name: 'lookup_order', args: { order: '12345' }, status: 'complete', result: 'shipped' },
  'approval-request': { token: 'tok_1', title: 'Refund 40 EUR', action: { name: 'refund', input: { order: '12345' } }, expiresAt: '2030-01-01T00:00:00Z' },
  table: { caption: 'Orders', columns: [{ key: 'id', label: 'Order' }, { key: 'total', label: 'Total' }], rows: [{ id: '12345', total: 40 }] },
  'file-attachment': { name: 'invoice.pdf', url: '/files/invoice.pdf', mimeType: 'application/pdf', size: 2048 },
}

/** The ComponentError `fn` throws (fails the test if it throws nothing, or something else). */
export function refusal(fn: () => unknown): ComponentError {
  try {
    fn()
  } catch (error) {
    if (ComponentError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a ComponentError')
}
