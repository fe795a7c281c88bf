import { defineAsyncComponent, defineComponent, h } from 'vue'
import type { PropType } from 'vue'
import type { Dialog, DialogAnswerInput } from '../../src/contract/dialog.js'
import { dialogLabels } from '../../src/view/dialog-labels.js'
import { chatProp } from './chat-prop.js'
import { useChatFrom, wordsOf } from './chat-context.js'
import { dialogCardId } from '../../src/view/follow-scroll.js'
import { renderMarkdown } from './markdown.js'
import type { MarkdownRenderer } from './markdown.js'
import type * as DialogUI from './dialog-ui.js'

let dialogUI: Promise<typeof DialogUI> | undefined
// The chunk's card once it is in: a card drawn after that mounts whole at once (an async component
// draws its placeholder first, and the list would scroll to a card about to grow under the reader).
let loadedContent: typeof DialogUI.DialogCardContent | undefined

/** Starts loading the dialog UI chunk (once): `<MessageList>` does as soon as the session has a live agent, the only source of pending dialogs. */
export function preloadDialogUI(): Promise<typeof DialogUI> {
  dialogUI ??= import('./dialog-ui.js').then((ui) => { loadedContent = ui.DialogCardContent; return ui })
  return dialogUI
}

/** The card's place while its UI loads: busy, with chatrail/react's words. */
const Placeholder = defineComponent({
  name: 'DialogPlaceholder',
  inheritAttrs: false,
  props: { dialog: { type: Object as PropType<Dialog>, required: true }, note: { type: String, required: true } },
  setup: (props) => () => h('section', { id: dialogCardId(props.dialog.toolId), tabindex: -1, 'data-chatrail-dialog': '', 'data-chatrail-dialog-kind': props.dialog.kind, 'data-chatrail-dialog-state': 'loading', 'aria-busy': 'true' }, h('p', { 'data-chatrail-dialog-note': '' }, props.note)),
})

const Content = defineAsyncComponent({
  loader: () => preloadDialogUI().then((ui) => ui.DialogCardContent),
  loadingComponent: Placeholder,
  delay: 0,
})

/**
 * An agent dialog in the chat stream (seed 001), with chatrail/react's markup and words. Pending:
 * an interactive card (options, multi-select, an Other row with free text; a plan in full with
 * Approve / Reject with feedback). Answered: a compact Q→A summary. A dialog only the agent's own
 * UI can answer says so. `onAnswer` replaces the chat's `answerDialog` (e.g. to log). The card's
 * UI is a chunk of its own (dialog-ui.ts); until it is in, a busy placeholder holds its place.
 */
export const DialogCard = defineComponent({
  name: 'DialogCard',
  props: {
    ...chatProp,
    dialog: { type: Object as PropType<Dialog>, required: true },
    onAnswer: { type: Function as PropType<(toolId: string, answer: DialogAnswerInput) => Promise<unknown>>, default: undefined },
    markdown: { type: Function as PropType<MarkdownRenderer>, default: undefined },
  },
  setup(props) {
    const chat = useChatFrom(props.chat, 'DialogCard')
    return () => {
      const { labels } = chat.snapshot.value
      return h((loadedContent ?? Content) as typeof Content, {
        id: dialogCardId(props.dialog.toolId),
        dialog: props.dialog,
        words: wordsOf(dialogLabels, chat),
        deliver: props.onAnswer ?? chat.answerDialog,
        markdown: props.markdown ?? renderMarkdown,
        codeWords: labels,
        note: props.dialog.kind === 'plan' ? labels.loadingPlan : labels.loadingQuestion,
      })
    }
  },
})
