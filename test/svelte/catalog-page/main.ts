import { mount } from 'svelte'
import '../../../renderers/react/styles.css'
import { ChatSession, createChatSession } from '../../../renderers/svelte/index.js'
import { ActionApprovalCard, PendingApprovals } from '../../../renderers/svelte/actions.js'
import type { ApprovalRecord, ApprovalSource } from '../../../renderers/svelte/actions.js'
import { catalogDefinition } from './definition.js'
import OrderCard from './OrderCard.svelte'

// The catalog page: <ChatSession> over a store made here, with the app's own view for
// `order-card`; the store's approvals (a source with one pending record) in <PendingApprovals>; and
// an approval card whose first Approve fails (the card shows why) and whose second succeeds
// (`window.decisions`).
const root = document.getElementById('root')
const side = document.getElementById('side')
if (root === null || side === null) throw new Error('catalog page: no #root or #side element')
const waiting: ApprovalRecord = { token: 'tok-5', status: 'pending', action: { name: 'cancel_order', input: { orderId: '12345' } }, expiresAt: Date.now() + 3_600_000 }
const approvals: ApprovalSource = {
  read: async (token) => (token === waiting.token ? waiting : undefined),
  list: async () => [waiting],
  approve: async (token) => ({ ...waiting, token, status: 'approved' }),
  reject: async (token, reason) => ({ ...waiting, token, status: 'rejected', ...(reason === undefined ? {} : { reason }) }),
}
const chat = createChatSession(catalogDefinition(), { approvals })
mount(ChatSession, { target: root, props: { chat, title: 'Catalog', componentViews: { 'order-card': OrderCard } } })
mount(PendingApprovals, { target: side, props: { chat } })
const decisions: string[] = []
Object.assign(window, { decisions })
let attempts = 0
mount(ActionApprovalCard, {
  target: side,
  props: {
    record: { token: 'tok-9', status: 'pending', action: { name: 'refund_order', input: { orderId: '12345' } }, expiresAt: Date.now() + 3_600_000 },
    onApprove: async (token: string) => {
      attempts += 1
      if (attempts === 1) throw new Error('The server refused: try again')
      decisions.push(`approve ${token}`)
    },
    onReject: async (token: string) => { decisions.push(`reject ${token}`) },
  },
})
