import { defineAsyncComponent, defineComponent, h, ref } from 'vue'
import type { PropType } from 'vue'
import type { BranchPosition } from '../../src/controller/index.js'
import type { UseChatSessionReturn } from './use-chat-session.js'
import { CHECK, COPY, EDIT, REGENERATE, icon } from './icons.js'
import { focusInput } from './suggestions.js'

/** The versions picker (version-picker.ts), a chunk of its own: most messages never have versions. */
const VersionPicker = defineAsyncComponent(() => import('./version-picker.js').then((module) => module.VersionPicker))

/** How long "Copied" shows after a copy. */
const COPIED_MS = 1500

/** A quiet icon button that copies `text`; after a copy it says "Copied" for a moment. A refused clipboard leaves it as it was. */
export const CopyButton = defineComponent({
  name: 'CopyButton',
  props: { text: { type: String, required: true }, label: { type: String, required: true }, copiedLabel: { type: String, required: true } },
  setup(props) {
    const copied = ref(false)
    const copy = (): void => {
      void navigator.clipboard?.writeText(props.text).then(() => {
        copied.value = true
        setTimeout(() => { copied.value = false }, COPIED_MS)
      }, () => undefined)
    }
    return () => {
      const label = copied.value ? props.copiedLabel : props.label
      return h('button', { type: 'button', 'data-chatrail-copy': '', 'data-chatrail-icon-button': '', 'data-chatrail-copied': copied.value ? '' : undefined, 'aria-label': label, title: label, onClick: copy }, icon(copied.value ? CHECK : COPY))
    }
  },
})

const iconButton = (name: string, label: string, d: string, onClick: (event: MouseEvent) => void, extra: Record<string, unknown> = {}) =>
  h('button', { type: 'button', [`data-chatrail-${name}`]: '', 'data-chatrail-icon-button': '', 'aria-label': label, title: label, onClick, ...extra }, icon(d))

/**
 * A message's actions (`div[data-chatrail-message-actions]`), as chatrail/react draws them: the
 * versions picker "‹ 1/2 ›" when an edit or a regenerate kept another version, the Stopped mark,
 * Copy, Edit (the user's own messages) and Regenerate (the view's lifecycle target: the last
 * reply, idle, no failure reported).
 */
export const MessageActions = defineComponent({
  name: 'MessageActions',
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    messageId: { type: String, required: true },
    text: { type: String, required: true },
    stopped: Boolean,
    versions: { type: Object as PropType<BranchPosition>, default: undefined },
    onEdit: { type: Function as PropType<() => void>, default: undefined },
    onRegenerate: { type: Function as PropType<() => void>, default: undefined },
  },
  setup(props) {
    return () => {
      const { labels } = props.chat.snapshot.value
      const { versions, messageId } = props
      if (!props.stopped && props.text === '' && props.onEdit === undefined && props.onRegenerate === undefined && versions === undefined) return null
      const regenerate = props.onRegenerate
      return h('div', { 'data-chatrail-message-actions': '' }, [
        versions === undefined ? null : h(VersionPicker, { chat: props.chat, messageId, versions }),
        props.stopped ? h('span', { 'data-chatrail-stopped-mark': '' }, labels.stopped) : null,
        props.text === '' ? null : h(CopyButton, { text: props.text, label: labels.copyMessage, copiedLabel: labels.copied }),
        props.onEdit === undefined ? null : iconButton('edit-button', labels.editMessage, EDIT, props.onEdit),
        regenerate === undefined ? null : iconButton('regenerate', labels.regenerate, REGENERATE, (event) => { focusInput(event.currentTarget); regenerate() }),
      ])
    }
  },
})
