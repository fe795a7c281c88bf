import { defineComponent, h, onUpdated, ref, watch } from 'vue'
import { chatProp } from './chat-prop.js'
import { useChatFrom } from './chat-context.js'
import { dialogCardId } from '../../src/view/follow-scroll.js'

/**
 * The message composer, as chatrail/react's `<Composer>`: a textarea that grows with its text
 * (Enter sends, Shift+Enter breaks the line, Esc stops a reply) and one button, Send or Stop, whose
 * word is its accessible name (the stylesheet draws an icon, `data-chatrail-icon`). While a dialog
 * waits it collapses to a note that goes to the card, plus Stop; once the dialog is answered the
 * focus comes back to the textarea (the card it was on is gone).
 */
export const Composer = defineComponent({
  name: 'Composer',
  props: { ...chatProp, placeholder: { type: String, default: undefined } },
  setup(props) {
    const chat = useChatFrom(props.chat, 'Composer')
    const box = ref<HTMLTextAreaElement>()
    watch(() => chat.snapshot.value.pendingDialog === undefined, (open, before) => {
      const active = document.activeElement
      // only take the focus the answered card dropped (to <body>), never from elsewhere
      if (open && !before && (active === null || active === document.body)) box.value?.focus()
    }, { flush: 'post' })
    onUpdated(() => {
      const element = box.value
      if (element === undefined) return
      element.style.height = 'auto'
      element.style.height = `${element.scrollHeight + element.offsetHeight - element.clientHeight}px`
    })
    return () => {
      const { chat: state, status, pendingDialog, badge, labels } = chat.snapshot.value
      const streaming = status === 'streaming'
      const stop = h('button', { type: 'button', 'data-chatrail-stop': '', 'data-chatrail-icon': '', onClick: () => chat.stop() }, h('span', labels.stop))
      if (pendingDialog !== undefined) {
        const goTo = (): void => {
          const card = document.getElementById(dialogCardId(pendingDialog.toolId))
          card?.scrollIntoView({ block: 'start' })
          card?.focus({ preventScroll: true })
        }
        return h('div', { 'data-chatrail-composer': '', 'data-chatrail-composer-collapsed': '' }, [
          h('p', { 'data-chatrail-composer-note': '' }, pendingDialog.answerable
            ? h('button', { type: 'button', 'data-chatrail-goto-dialog': '', onClick: goTo }, `${badge.words} ${labels.dialogAbove}`)
            : badge.words),
          stop,
        ])
      }
      const submit = (): void => { if (!streaming && state.input.trim() !== '') void chat.send(state.input) }
      const onKeydown = (event: KeyboardEvent): void => {
        if (event.key === 'Escape' && streaming) { event.preventDefault(); chat.stop() }
        if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); submit() }
      }
      return h('form', { 'data-chatrail-composer': '', onSubmit: (event: Event) => { event.preventDefault(); submit() } }, [
        h('textarea', {
          ref: box,
          'aria-label': labels.message,
          'data-chatrail-input': '',
          rows: 1,
          placeholder: props.placeholder ?? labels.placeholder,
          value: state.input,
          onInput: (event: Event) => chat.setInput((event.target as HTMLTextAreaElement).value),
          onKeydown,
        }),
        streaming ? stop : h('button', { type: 'submit', 'data-chatrail-send': '', 'data-chatrail-icon': '', disabled: state.input.trim() === '' }, h('span', labels.send)),
      ])
    }
  },
})
