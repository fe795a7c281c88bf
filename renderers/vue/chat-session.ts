import { defineComponent, h, provide, watch } from 'vue'
import type { PropType } from 'vue'
import type { ChatDefinition } from '../../src/conversation/index.js'
import { bindingIdentity } from '../../src/view/chat-binding.js'
import type { ChatLabels } from '../../src/view/chat-labels.js'
import type { RemoteChatOptions } from '../../src/view/remote-chat-binding.js'
import { PendingApprovals } from './pending-approvals.js'
import { chatSessionKey } from './chat-context.js'
import type { ComponentViews } from './component-part.js'
import { Composer } from './composer.js'
import { EventButtons } from './event-buttons.js'
import { MessageList } from './message-list.js'
import type { MarkdownRenderer } from './markdown.js'
import { StateBadge } from './state-badge.js'
import { Welcome } from './suggestions.js'
import { useChatSession } from './use-chat-session.js'
import type { UseChatSessionOptions } from './use-chat-session.js'

const sessionProps = {
  definition: { type: Object as PropType<ChatDefinition>, required: true as const },
  /** Session options (`ids`, `clock`, `key`, `approvals`, …); `labels`, `stateLabels` and `eventLabels` have props of their own. */
  options: { type: Object as PropType<UseChatSessionOptions>, default: undefined },
  /** A chatrail server (`{ api, conversationId }`): every turn runs there, and a reload restores the stored conversation. */
  remote: { type: Object as PropType<RemoteChatOptions>, default: undefined },
  /** Name of the chat region and its (visually hidden) h2 heading; default `labels.title` ("Chat"). */
  title: { type: String, default: undefined },
  greeting: { type: String, default: undefined },
  placeholder: { type: String, default: undefined },
  /** The UI's words over the English defaults (`ChatLabels`). Read once, when the chat mounts. */
  labels: { type: Object as PropType<Partial<ChatLabels>>, default: undefined },
  stateLabels: { type: Object as PropType<Record<string, string>>, default: undefined },
  eventLabels: { type: Object as PropType<Record<string, string>>, default: undefined },
  /** Views for component keys of your own registry. */
  componentViews: { type: Object as PropType<ComponentViews>, default: undefined },
  /** How a reply's and a plan's text are drawn; default plain text. */
  markdown: { type: Function as PropType<MarkdownRenderer>, default: undefined },
}

const ChatSessionMount = defineComponent({
  name: 'ChatSessionMount',
  props: sessionProps,
  setup(props, { slots }) {
    const { remote, labels, stateLabels, eventLabels } = props
    const chat = useChatSession(props.definition, { ...props.options, remote, labels, stateLabels, eventLabels })
    provide(chatSessionKey, chat)
    // the same definition id and revision in a new object (a new agent, say): the session keeps its
    // progress and uses the new chat config from the next turn (a local binding's `updateDefinition`)
    watch(() => props.definition, (next) => chat.view.binding.updateDefinition(next))
    return () => {
      const { labels, messages, status } = chat.snapshot.value
      const name = props.title ?? labels.title
      return h('section', { 'data-chatrail-chat': '', 'data-chatrail-status': status, 'data-chatrail-remote': props.remote === undefined ? undefined : '', 'aria-label': name }, [
        h('header', { 'data-chatrail-header': '' }, [h('h2', { 'data-chatrail-title': '' }, name), h(StateBadge, { chat })]),
        slots.default?.(),
        h(Welcome, { chat, greeting: props.greeting }),
        h(MessageList, { chat, markdown: props.markdown, componentViews: props.componentViews }),
        h(PendingApprovals, { chat }),
        messages.length > 0 ? h(EventButtons, { chat }) : null,
        h(Composer, { chat, placeholder: props.placeholder }),
      ])
    }
  },
})

/**
 * A complete chat over one session, with chatrail/react's `<ChatSession>` markup: a hidden h2
 * title, the status line, the welcome with suggestion chips (first screen) or the message list
 * with dialog cards (and the error banner at its end), the approvals waiting, the current state's
 * event buttons and the composer. Local by default; with `remote` every turn runs on a chatrail
 * server. A new definition id or revision (or `options.key`, or conversation) mounts a new session.
 * Headless: markup and `data-chatrail-*` attributes only; chatrail/react/styles.css draws it.
 * Its default slot renders inside the chat's context, after the header.
 */
export const ChatSession = defineComponent({
  name: 'ChatSession',
  props: sessionProps,
  setup(props, { slots }) {
    return () => {
      const key = `${props.remote?.conversationId ?? ''}:${bindingIdentity(props.definition, props.options?.key)}`
      return h(ChatSessionMount, { ...props, key }, slots)
    }
  },
})
