import { defineComponent, h, onMounted, onUpdated, ref } from 'vue'
import type { PropType } from 'vue'
import type { BranchPosition } from '../../src/controller/index.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

type Side = 'previous' | 'next'

/**
 * The button to focus once the picker of `messageId` renders: switching versions of a reply shows
 * a message with another id (a new element), so the focus is handed over by id, not by element.
 */
let handover: { messageId: string; side: Side } | undefined

/**
 * "‹ 1/2 ›" on a message with versions (an edit or a regenerate kept the one it replaced), as
 * chatrail/react draws it: Previous version and Next version, labelled buttons that stay focusable
 * at the ends (`aria-disabled`), and the count read politely when it changes.
 */
export const VersionPicker = defineComponent({
  name: 'VersionPicker',
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    messageId: { type: String, required: true },
    versions: { type: Object as PropType<BranchPosition>, required: true },
  },
  setup(props) {
    const group = ref<HTMLElement>()
    const receive = (): void => {
      if (handover?.messageId !== props.messageId) return
      const side = handover.side
      handover = undefined
      group.value?.querySelector<HTMLElement>(`[data-chatrail-branch-${side}]`)?.focus()
    }
    onMounted(receive)
    onUpdated(receive)
    const switchTo = (index: number, side: Side): void => {
      const { chat, messageId } = props
      const at = chat.snapshot.value.messages.findIndex((message) => message.id === messageId)
      if (!chat.switchVersion(messageId, index)) return
      const head = chat.view.binding.controller.getState().messages[at]
      if (head !== undefined) handover = { messageId: head.id, side }
    }
    return () => {
      const { versions } = props
      const { labels } = props.chat.snapshot.value
      return h('span', { ref: group, 'data-chatrail-branch-picker': '', role: 'group', 'aria-label': labels.versions }, [
        h('button', { type: 'button', 'data-chatrail-icon-button': '', 'data-chatrail-branch-previous': '', 'aria-label': labels.previousVersion, title: labels.previousVersion, 'aria-disabled': versions.index === 0 ? 'true' : undefined, onClick: () => { if (versions.index > 0) switchTo(versions.index - 1, 'previous') } }, h('span', { 'aria-hidden': 'true' }, '‹')),
        h('span', { 'data-chatrail-branch-count': '', 'aria-live': 'polite' }, [h('span', { 'aria-hidden': 'true' }, `${versions.index + 1}/${versions.count}`), h('span', { 'data-chatrail-visually-hidden': '' }, labels.versionOf(versions.index + 1, versions.count))]),
        h('button', { type: 'button', 'data-chatrail-icon-button': '', 'data-chatrail-branch-next': '', 'aria-label': labels.nextVersion, title: labels.nextVersion, 'aria-disabled': versions.index === versions.count - 1 ? 'true' : undefined, onClick: () => { if (versions.index < versions.count - 1) switchTo(versions.index + 1, 'next') } }, h('span', { 'aria-hidden': 'true' }, '›')),
      ])
    }
  },
})
