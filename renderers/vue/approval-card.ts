import { defineComponent, h, ref } from 'vue'
import type { PropType } from 'vue'
import { approvalOutcomeOf, approvalStateOf } from '../../src/view/approval-card.js'
import { approvalLabels } from '../../src/view/approval-labels.js'
import type { ApprovalRecord } from '../../src/view/approval-source.js'

/**
 * A proposed action waiting for the user (docs/actions.md), with chatrail/react/actions' markup:
 * its name and input, Approve and Reject while it is pending and not expired, then what was
 * decided. One decision per card: the buttons are disabled from the first click until the answer
 * (the store makes a second approval from anywhere else harmless too).
 */
export const ActionApprovalCard = defineComponent({
  name: 'ActionApprovalCard',
  props: {
    record: { type: Object as PropType<ApprovalRecord>, required: true },
    onApprove: { type: Function as PropType<(token: string) => Promise<unknown>>, required: true },
    onReject: { type: Function as PropType<(token: string, reason?: string) => Promise<unknown>>, required: true },
    /** Milliseconds since the epoch, to hide the buttons of an expired proposal. Default `Date.now`. */
    now: { type: Function as PropType<() => number>, default: () => Date.now() },
    labels: { type: Object as PropType<Partial<typeof approvalLabels>>, default: undefined },
  },
  setup(props) {
    const busy = ref(false)
    const failure = ref<string>()
    const decide = (run: () => Promise<unknown>): void => {
      if (busy.value) return
      busy.value = true
      failure.value = undefined
      run().then(() => { busy.value = false }, (error: unknown) => { busy.value = false; failure.value = error instanceof Error ? error.message : String(error) })
    }
    return () => {
      const { record } = props
      const words = { ...approvalLabels, ...props.labels }
      const state = approvalStateOf(record, props.now())
      return h('section', { 'data-chatrail-approval': '', 'data-chatrail-approval-state': state, 'aria-label': words.confirmAction(record.action.name) }, [
        h('p', { 'data-chatrail-approval-name': '' }, record.action.name),
        h('pre', { 'data-chatrail-approval-input': '' }, JSON.stringify(record.action.input, null, 2)),
        state === 'pending'
          ? h('div', { 'data-chatrail-dialog-buttons': '' }, [
            h('button', { type: 'button', 'data-chatrail-approve': '', disabled: busy.value, onClick: () => decide(() => props.onApprove(record.token)) }, words.approve),
            h('button', { type: 'button', 'data-chatrail-reject': '', disabled: busy.value, onClick: () => decide(() => props.onReject(record.token)) }, words.reject),
          ])
          : h('p', { 'data-chatrail-approval-outcome': '', role: 'status' }, approvalOutcomeOf(record, state, words)),
        failure.value === undefined ? null : h('p', { role: 'alert', 'data-chatrail-approval-error': '' }, failure.value),
      ])
    }
  },
})
