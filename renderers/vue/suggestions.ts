import { defineComponent, h } from 'vue'
import type { PropType } from 'vue'
import type { LabelledSuggestion } from '../../src/view/event-bar.js'
import { chatProp } from './chat-prop.js'
import { useChatFrom } from './chat-context.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/** The focus goes where the next message is typed: the chips or the button leave with what they answered. */
export function focusInput(from: EventTarget | null): void {
  ;(from as Element | null)?.closest('[data-chatrail-chat]')?.querySelector<HTMLElement>('[data-chatrail-composer] [data-chatrail-input]')?.focus()
}

/** The chips of `suggestions` (the view's, labelled): a command chip sends the command, an event chip fires its UI event. */
export function suggestionChips(chat: UseChatSessionReturn, suggestions: readonly LabelledSuggestion[], disabled: boolean) {
  if (suggestions.length === 0) return null
  return h('ul', { 'data-chatrail-suggestions': '', 'aria-label': chat.snapshot.value.labels.suggestions }, suggestions.map((suggestion) =>
    h('li', { key: `${suggestion.kind}:${suggestion.label}` }, h('button', {
      type: 'button',
      'data-chatrail-suggestion': suggestion.kind,
      disabled,
      onClick: (event: MouseEvent) => {
        focusInput(event.currentTarget)
        void (suggestion.kind === 'command' ? chat.send(suggestion.text) : chat.sendEvent(suggestion.uiEvent, suggestion.label))
      },
    }, [
      h('span', { 'data-chatrail-suggestion-label': '' }, suggestion.label),
      suggestion.description === undefined ? null : h('span', { 'data-chatrail-suggestion-description': '' }, suggestion.description),
    ]))))
}

/** The suggestion chips for the current state (`snapshot.suggestions`), disabled while a reply streams. */
export const Suggestions = defineComponent({
  name: 'Suggestions',
  props: { ...chatProp, suggestions: { type: Array as PropType<readonly LabelledSuggestion[]>, default: undefined } },
  setup(props) {
    const chat = useChatFrom(props.chat, 'Suggestions')
    return () => suggestionChips(chat, props.suggestions ?? chat.snapshot.value.suggestions, chat.snapshot.value.busy)
  },
})

/** The first screen: a greeting and the suggestion chips; nothing once the chat has a message. */
export const Welcome = defineComponent({
  name: 'Welcome',
  props: { ...chatProp, greeting: { type: String, default: undefined } },
  setup(props) {
    const chat = useChatFrom(props.chat, 'Welcome')
    return () => {
      const { messages, labels, suggestions } = chat.snapshot.value
      if (messages.length > 0) return null
      return h('div', { 'data-chatrail-welcome': '' }, [
        h('p', { 'data-chatrail-greeting': '' }, props.greeting ?? labels.greeting),
        suggestionChips(chat, suggestions, false),
      ])
    }
  },
})
