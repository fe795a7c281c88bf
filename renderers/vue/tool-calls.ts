import { defineComponent, h, ref, useId } from 'vue'
import type { PropType } from 'vue'
import type { ToolCall } from '../../src/contract/message.js'
import { extrasLabels } from '../../src/view/extras-labels.js'
import type { ExtrasLabels } from '../../src/view/extras-labels.js'
import { formatToolArgs, truncatedHead } from '../../src/view/tool-output.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * A block of tool input or output with its label (`pre[data-chatrail-tool-output]`), cut past the
 * view's limits (`truncatedHead`: 20 lines or 2,000 characters) with a real button that shows the
 * rest ("Show more" / "Show less", `aria-expanded`).
 */
const TruncatedOutput = defineComponent({
  name: 'TruncatedOutput',
  props: {
    label: { type: String, required: true },
    text: { type: String, required: true },
    words: { type: Object as PropType<Pick<ExtrasLabels, 'showMore' | 'showLess'>>, required: true },
  },
  setup(props) {
    const expanded = ref(false)
    const id = useId()
    return () => {
      const head = truncatedHead(props.text)
      const cut = head !== undefined && !expanded.value
      return h('div', { 'data-chatrail-tool-section': '' }, [
        h('p', { 'data-chatrail-tool-label': '' }, props.label),
        h('pre', { id, 'data-chatrail-tool-output': '', 'data-chatrail-truncated': cut ? '' : undefined }, cut ? `${head}…` : props.text),
        head === undefined ? null : h('button', { type: 'button', 'data-chatrail-show-more': '', 'aria-expanded': String(expanded.value), 'aria-controls': id, onClick: () => { expanded.value = !expanded.value } }, expanded.value ? props.words.showLess : props.words.showMore),
      ])
    }
  },
})

/**
 * One tool call as a card (`section[data-chatrail-tool-card][data-chatrail-tool-status]`), as
 * chatrail/react draws it: its name and status, and behind a disclosure button its arguments and
 * its result or error. Open while the call runs, fails or waits for approval, closed once complete
 * unless toggled. A call in `requires_confirmation` is always open, with Approve and Deny (the
 * controller's `approve` / `deny`), disabled from the first click until the answer.
 */
const ToolCallCard = defineComponent({
  name: 'ToolCallCard',
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    call: { type: Object as PropType<ToolCall>, required: true },
  },
  setup(props) {
    const toggled = ref<boolean>()
    const busy = ref(false)
    const failure = ref<string>()
    const bodyId = useId()
    const decide = (run: () => Promise<void>): void => {
      if (busy.value) return
      busy.value = true
      failure.value = undefined
      run().then(() => { busy.value = false }, (error: unknown) => { busy.value = false; failure.value = error instanceof Error ? error.message : String(error) })
    }
    return () => {
      const { call, chat } = props
      const words = { ...extrasLabels, ...chat.labels }
      const controller = chat.view.binding.controller
      const asking = call.status === 'requires_confirmation'
      const open = asking || (toggled.value ?? call.status !== 'complete')
      const name = h('span', { 'data-chatrail-tool-name': '' }, call.name)
      return h('section', { 'data-chatrail-tool-card': '', 'data-chatrail-tool-status': call.status, 'aria-label': words.toolCard(call.name) }, [
        h('div', { 'data-chatrail-tool-header': '' }, [
          asking ? name : h('button', { type: 'button', 'data-chatrail-tool-toggle': '', 'aria-expanded': String(open), 'aria-controls': bodyId, onClick: () => { toggled.value = !open } }, name),
          h('span', { 'data-chatrail-tool-state': '', 'aria-live': 'polite' }, words.toolStatus(call.status)),
        ]),
        h('div', { id: bodyId, 'data-chatrail-tool-body': '', hidden: !open }, [
          h(TruncatedOutput, { label: words.toolArguments, text: formatToolArgs(call.args), words }),
          call.result === undefined || call.result === '' ? null : h(TruncatedOutput, { label: words.toolResult, text: call.result, words }),
          call.error === undefined ? null : h(TruncatedOutput, { label: words.toolError, text: call.error, words }),
          asking ? h('div', { 'data-chatrail-dialog-buttons': '' }, [
            h('button', { type: 'button', 'data-chatrail-tool-approve': '', disabled: busy.value, onClick: () => decide(() => controller.approve(call.id)) }, words.approve),
            h('button', { type: 'button', 'data-chatrail-tool-deny': '', disabled: busy.value, onClick: () => decide(() => controller.deny(call.id)) }, words.deny),
          ]) : null,
          failure.value === undefined ? null : h('p', { role: 'alert', 'data-chatrail-tool-error': '' }, failure.value),
        ]),
      ])
    }
  },
})

/** A reply's tool calls as cards (`div[data-chatrail-tool-calls]`). */
export const ToolCallList = defineComponent({
  name: 'ToolCallList',
  inheritAttrs: false,
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    calls: { type: Array as PropType<readonly ToolCall[]>, required: true },
  },
  setup: (props) => () => h('div', { 'data-chatrail-tool-calls': '' }, props.calls.map((call) => h(ToolCallCard, { key: call.id, chat: props.chat, call }))),
})
