import { defineComponent, h } from 'vue'
import type { PropType } from 'vue'
import { isSafeUrl } from '../../src/components/safe-url.js'
import type { MessageSource } from '../../src/contract/message-source.js'
import { extrasLabels } from '../../src/view/extras-labels.js'
import { sourceLabel } from '../../src/view/source-label.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The sources a reply cites (`nav[data-chatrail-sources]`, a numbered list). Only safe urls are
 * links (`isSafeUrl`), opening in a new tab without opener or referrer; any other is plain text,
 * so nothing cited is hidden and nothing unsafe is clickable. In the reply extras chunk
 * (reply-extras.ts).
 */
export const SourceList = defineComponent({
  name: 'SourceList',
  inheritAttrs: false,
  props: {
    sources: { type: Array as PropType<readonly MessageSource[]>, required: true },
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
  },
  setup: (props) => () => {
    const { sources } = { ...extrasLabels, ...props.chat.labels }
    return h('nav', { 'data-chatrail-sources': '', 'aria-label': sources }, [
      h('p', { 'data-chatrail-sources-label': '' }, sources),
      h('ol', props.sources.map((source) => h('li', { key: source.url }, isSafeUrl(source.url)
        ? h('a', { href: source.url, target: '_blank', rel: 'noopener noreferrer', title: source.url }, sourceLabel(source))
        : h('span', { 'data-chatrail-source-unsafe': '' }, sourceLabel(source))))),
    ])
  },
})
