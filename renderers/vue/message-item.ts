import { defineAsyncComponent, defineComponent, h, nextTick, ref } from 'vue'
import type { PropType, VNodeChild } from 'vue'
import { isComponentPart } from '../../src/contract/component-chunk.js'
import type { Message, ToolCall } from '../../src/contract/message.js'
import { uiEventOf } from '../../src/conversation/ui-events.js'
import { messageAttributesOf } from '../../src/view/message-attributes.js'
import { reasoningOf } from '../../src/view/reasoning.js'
import type { UseChatSessionReturn } from './use-chat-session.js'
import { ComponentPartView } from './component-part.js'
import type { ComponentViews } from './component-part.js'
import { MessageActions } from './message-actions.js'
import { renderMarkdown } from './markdown.js'
import type { MarkdownRenderer } from './markdown.js'
import { focusInput } from './suggestions.js'


/** Until the tool cards are in (or if they failed to load): one line per call, if any. */
const ToolCallChips = defineComponent({
  name: 'ToolCallChips',
  inheritAttrs: false,
  props: { calls: { type: Array as PropType<readonly ToolCall[]>, required: true } },
  setup: (props) => () => props.calls.length === 0 ? null : h('ul', { 'data-chatrail-tool-chips': '' }, props.calls.map((call) => h('li', { key: call.id, 'data-chatrail-tool-chip': call.status }, `${call.name} · ${call.status}`))),
})

/** What leads a reply (its "Thinking") and closes it (its tool call cards, its sources): reply-extras.ts, a chunk of its own. */
const ReplyExtras = defineAsyncComponent({
  loader: () => import('./reply-extras.js').then((module) => module.ReplyExtras),
  loadingComponent: ToolCallChips,
  errorComponent: ToolCallChips,
  delay: 0,
})


/** The edit form (edit-form.ts), a chunk of its own: loaded the first time a message is edited. */
const EditForm = defineAsyncComponent(() => import('./edit-form.js').then((module) => module.EditForm))

/**
 * One chat message, with chatrail/react's markup (`article[data-chatrail-message][data-chatrail-role]
 * [data-chatrail-status]`): the user's text, a reply's text (`markdown`) or its parts in order
 * (text and components), its tool calls as cards, and its actions (Copy, Edit on the
 * user's own messages while no reply streams, Regenerate where the view offers it (`regenerable`),
 * the versions picker). `part`: a reply split around a dialog (the view's `layoutStream`). A reply
 * the user stopped before any text came is not shown.
 */
export const MessageItem = defineComponent({
  name: 'MessageItem',
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    message: { type: Object as PropType<Message>, required: true },
    text: { type: String, default: undefined },
    part: { type: String as PropType<'before' | 'after' | 'fallback'>, default: undefined },
    hiddenToolIds: { type: Object as PropType<ReadonlySet<string>>, required: true },
    markdown: { type: Function as PropType<MarkdownRenderer>, default: undefined },
    componentViews: { type: Object as PropType<ComponentViews>, default: undefined },
  },
  setup(props) {
    const editing = ref(false)
    const article = ref<HTMLElement>()
    return () => {
      const { message, part, chat } = props
      const { labels, stopped: stoppedIds, status, regenerable: regenerableId, versions } = chat.snapshot.value
      const text = props.text ?? message.content
      const stopped = stoppedIds.has(message.id)
      const event = uiEventOf(message)
      const toolCalls = part === 'before' ? [] : (message.toolCalls ?? []).filter((call) => !props.hiddenToolIds.has(call.id))
      const streaming = message.status === 'streaming' && part !== 'before'
      const render = props.markdown ?? renderMarkdown
      const markdown = (source: string): VNodeChild => render(source, { streaming, labels })
      if (stopped && message.content === '' && toolCalls.length === 0) return null
      // reasoning leads the reply (its first part when split): no typing dots under it
      const reasoning = part === 'after' || part === 'fallback' ? '' : reasoningOf(message)
      const waiting = streaming && text === '' && toolCalls.length === 0 && reasoning === ''
      const components = part === undefined && text === message.content && (message.parts ?? []).some(isComponentPart)
      const editable = status !== 'streaming' && event === undefined && message.role === 'user'
      const regenerable = part !== 'before' && regenerableId === message.id
      const body = message.role !== 'assistant'
        ? text
        : components
          ? (message.parts ?? []).map((item) => isComponentPart(item)
            ? h(ComponentPartView, { key: `c:${item.instanceId}`, chat, messageId: message.id, part: item, views: props.componentViews })
            : item.type === 'text' && item.text.trim() !== '' ? markdown(item.text) : null)
          : markdown(text)
      return h('article', { ref: article, ...messageAttributesOf(message, part, stopped), 'aria-label': labels[message.role === 'user' ? 'you' : message.role] }, [
        reasoning === '' ? null : h(ReplyExtras, { chat, message, part, at: 'start', calls: [] }),
        editing.value
          ? h(EditForm, {
            chat,
            text: message.content,
            // Esc or Cancel gives the focus back to the Edit button, there again once the form is gone
            onCancel: () => { editing.value = false; void nextTick(() => article.value?.querySelector<HTMLElement>('[data-chatrail-edit-button]')?.focus()) },
            onSave: (content: string) => { editing.value = false; focusInput(article.value ?? null); void chat.edit(message.id, content) },
          })
          : h('div', { 'data-chatrail-content': '' }, [body, waiting ? h('span', { 'data-chatrail-typing': '', role: 'img', 'aria-label': labels.typing }, '…') : null]),
        message.role === 'assistant' ? h(ReplyExtras, { chat, message, part, at: 'end', calls: toolCalls }) : null,
        editing.value || streaming || part === 'before' ? null : h(MessageActions, {
          chat,
          messageId: message.id,
          text,
          stopped,
          versions: versions.get(message.id),
          onEdit: editable ? () => { editing.value = true } : undefined,
          onRegenerate: regenerable ? () => { void chat.regenerate(message.id) } : undefined,
        }),
      ])
    }
  },
})
