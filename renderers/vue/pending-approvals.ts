import { defineAsyncComponent, defineComponent, h } from 'vue'
import { approvalLabels } from '../../src/view/approval-labels.js'
import { chatProp } from './chat-prop.js'
import { useChatFrom, wordsOf } from './chat-context.js'

/**
 * `<ActionApprovalCard>` (approval-card.ts), a chunk of its own: most chats never show one, so the
 * entry does not carry it. Loaded the first time a record waits (or the app renders a card).
 */
export const ActionApprovalCard = defineAsyncComponent(() => import('./approval-card.js').then((module) => module.ActionApprovalCard))

/**
 * The conversation's confirmation records no message shows (the view's `snapshot.approvals`, read
 * from the `approvals` option: `coordinatorApprovals` or `serverApprovals` from chatrail/view), each
 * as an `<ActionApprovalCard>` deciding through the view. Nothing when nothing waits.
 */
export const PendingApprovals = defineComponent({
  name: 'PendingApprovals',
  props: { ...chatProp, label: { type: String, default: undefined } },
  setup(props) {
    const chat = useChatFrom(props.chat, 'PendingApprovals')
    return () => {
      const { approvals } = chat.snapshot.value
      if (approvals.length === 0) return null
      const words = wordsOf(approvalLabels, chat)
      return h('section', { 'aria-label': props.label ?? words.pendingApprovals, 'data-chatrail-pending-approvals': '' }, approvals.map((record) =>
        h(ActionApprovalCard, { key: record.token, record, labels: words, onApprove: chat.approve, onReject: chat.reject })))
    }
  },
})
