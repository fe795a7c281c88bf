import type { ToolDefinition } from '../../../src/contract/tool.js'

/**
 * The example's two tools, which the scripted agent calls when a message mentions "refund":
 * `lookup_order` runs at once (its long history shows "Show more"), `refund_order` needs the
 * user's approval first (its card asks Approve / Deny).
 */
export const supportTools: ToolDefinition[] = [
  {
    name: 'lookup_order',
    description: 'The order and its shipping history.',
    execute: (args) => [
      `Order #${String(args.orderId)}: 2 items, paid 42.00 EUR, shipped with express delivery.`,
      ...Array.from({ length: 29 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')} 09:${String(i).padStart(2, '0')} carrier scan ${i + 1}: parcel in transit`),
    ].join('\n'),
  },
  {
    name: 'refund_order',
    description: 'Refunds an order. Needs the customer’s approval.',
    requiresConfirmation: true,
    execute: (args) => `Refunded ${String(args.amount)} EUR for order #${String(args.orderId)}.`,
  },
]
