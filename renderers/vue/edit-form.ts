import { defineComponent, h, nextTick, ref } from 'vue'
import type { PropType } from 'vue'
import type { UseChatSessionReturn } from './use-chat-session.js'

/** Enter saves, Shift+Enter breaks the line, Esc cancels; the box has the focus as it opens. */
export const EditForm = defineComponent({
  name: 'EditForm',
  props: {
    chat: { type: Object as PropType<UseChatSessionReturn>, required: true },
    text: { type: String, required: true },
    onSave: { type: Function as PropType<(text: string) => void>, required: true },
    onCancel: { type: Function as PropType<() => void>, required: true },
  },
  setup(props) {
    const draft = ref(props.text)
    const box = ref<HTMLTextAreaElement>()
    void nextTick(() => {
      box.value?.focus()
      box.value?.setSelectionRange(draft.value.length, draft.value.length)
    })
    const save = (): void => { if (draft.value.trim() !== '') props.onSave(draft.value) }
    const onKeydown = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') { event.preventDefault(); props.onCancel() }
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); save() }
    }
    return () => {
      const { labels } = props.chat.snapshot.value
      return h('form', { 'data-chatrail-edit': '', onSubmit: (event: Event) => { event.preventDefault(); save() } }, [
        h('textarea', { ref: box, 'aria-label': labels.editMessage, 'data-chatrail-input': '', rows: 2, value: draft.value, onInput: (event: Event) => { draft.value = (event.target as HTMLTextAreaElement).value }, onKeydown }),
        h('div', { 'data-chatrail-edit-buttons': '' }, [
          h('button', { type: 'submit', 'data-chatrail-save': '', disabled: draft.value.trim() === '' }, labels.saveAndResend),
          h('button', { type: 'button', 'data-chatrail-cancel': '', onClick: props.onCancel }, labels.cancel),
        ]),
      ])
    }
  },
})
