import { defineAsyncComponent, defineComponent, Fragment, h, onBeforeUpdate, onUpdated, ref, watch } from 'vue'
import type { PropType } from 'vue'
import { finishedReplies } from '../../src/view/reply-announcements.js'
import { cardArrivals, followScrollTop, isFollowing, lastUserMessageId } from '../../src/view/follow-scroll.js'
import { chatProp } from './chat-prop.js'
import { useChatFrom } from './chat-context.js'
import { DialogCard, preloadDialogUI } from './dialog-card.js'
import { ErrorBanner } from './error-banner.js'
import { MessageItem } from './message-item.js'
import type { MarkdownRenderer } from './markdown.js'
import type { ComponentViews } from './component-part.js'

/** "Jump to latest" (jump-to-latest.ts), a chunk of its own: shown only to a reader scrolled up while a reply streams. */
const JumpToLatest = defineAsyncComponent(() => import('./jump-to-latest.js').then((module) => module.JumpToLatest))

/**
 * The chat stream as the view lays it out (`snapshot.items`: messages, replies split around a
 * dialog, dialog cards), in the chat's only scroll container (`div[role=log][data-chatrail-message-list]`,
 * `aria-live="off"`: a reply is read once, whole, by the polite region after it), and the error
 * banner at its end. System messages are not shown. While the reader is at the bottom (or has just
 * sent something), new content keeps them there, and a newly arrived dialog card is scrolled to
 * its top; a reader scrolled up into history is left where they are, and offered "Jump to latest"
 * while a reply streams.
 */
export const MessageList = defineComponent({
  name: 'MessageList',
  props: {
    ...chatProp,
    label: { type: String, default: undefined },
    markdown: { type: Function as PropType<MarkdownRenderer>, default: undefined },
    /** Views for component keys of your own registry (the standard catalog's are built in). */
    componentViews: { type: Object as PropType<ComponentViews>, default: undefined },
  },
  setup(props) {
    const chat = useChatFrom(props.chat, 'MessageList')
    const list = ref<HTMLElement>()
    const announced = ref('')
    let following = true
    const arrivals = cardArrivals()
    let lastUser: string | undefined
    onBeforeUpdate(() => {
      const element = list.value
      following = element === undefined || isFollowing(element)
    })
    onUpdated(() => {
      const element = list.value
      if (element === undefined) return
      const { items } = chat.snapshot.value
      const card = arrivals(items)
      const user = lastUserMessageId(items)
      // sending (or editing) is an explicit act: the reader wants to see the reply, wherever they were
      if (user !== lastUser) following = true
      lastUser = user
      if (!following) return
      element.scrollTop = followScrollTop(element, card)
    })
    // a live agent is the only source of pending dialogs: fetch their UI before the first one comes
    watch(() => chat.snapshot.value.conversation.agent !== undefined, (live) => { if (live) void preloadDialogUI() }, { immediate: true })
    // each reply, whole, once it is complete (the log itself is not live: it would read every chunk); history there at mount is not read out
    const seen = new Set(chat.snapshot.value.messages.filter((message) => message.status !== 'streaming').map((message) => message.id))
    watch(() => chat.snapshot.value.messages, (messages) => {
      const done = finishedReplies(messages, seen)
      for (const message of done) seen.add(message.id)
      if (done.length > 0) announced.value = done.map((message) => message.content).join('\n\n')
    })
    return () => {
      const { items, labels, status } = chat.snapshot.value
      // tool calls shown as dialog cards get no chip
      const dialogToolIds = new Set(items.flatMap((item) => (item.kind === 'dialog' ? [item.dialog.toolId] : [])))
      return h(Fragment, [
        h('div', { ref: list, role: 'log', 'aria-label': props.label ?? labels.messages, 'aria-live': 'off', tabindex: 0, 'data-chatrail-message-list': '' }, [
          ...items.map((item) => {
            if (item.kind === 'dialog') return h(DialogCard, { key: item.key, dialog: item.dialog, chat, markdown: props.markdown })
            if (item.message.role === 'system') return null
            return h(MessageItem, { key: item.key, chat, message: item.message, text: item.text, part: item.part, hiddenToolIds: dialogToolIds, markdown: props.markdown, componentViews: props.componentViews })
          }),
          h(ErrorBanner, { chat }),
        ]),
        // loaded with the first reply that streams; mounted while one does
        list.value === undefined || status !== 'streaming' ? null : h(JumpToLatest, { list: list.value, label: labels.jumpToLatest }),
        h('div', { 'aria-live': 'polite', 'data-chatrail-announcer': '' }, announced.value),
      ])
    }
  },
})
