import { defineComponent, h, ref, useId } from 'vue'
import type { PropType } from 'vue'
import { extrasLabels } from '../../src/view/extras-labels.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * A reply's reasoning as a "Thinking" disclosure (`div[data-chatrail-reasoning]`, a real button with
 * `aria-expanded`): open while the reply streams, closed once it is complete unless the user
 * toggled it. Plain text, never markdown: it is the model's scratch work, not its answer. In the reply
 * extras chunk (reply-extras.ts).
 */
export const ReasoningSection = defineComponent({
  name: 'ReasoningSection',
  inheritAttrs: false,
  props: {
    text: { type: String, required: true },
    streaming: Boolean,
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
  },
  setup(props) {
    const toggled = ref<boolean>()
    const id = useId()
    return () => {
      const words = { ...extrasLabels, ...props.chat.labels }
      const open = toggled.value ?? props.streaming
      return h('div', { 'data-chatrail-reasoning': '', 'data-chatrail-reasoning-streaming': props.streaming ? '' : undefined }, [
        h('button', { type: 'button', 'data-chatrail-reasoning-toggle': '', 'aria-expanded': String(open), 'aria-controls': id, onClick: () => { toggled.value = !open } }, props.streaming ? words.thinkingNow : words.thinking),
        h('div', { id, 'data-chatrail-reasoning-text': '', hidden: !open }, props.text),
      ])
    }
  },
})
