import { defineComponent, h } from 'vue'
import { chatProp } from './chat-prop.js'
import { useChatFrom } from './chat-context.js'
import { focusInput, suggestionChips } from './suggestions.js'

/**
 * The bar under the messages, as the view decides it (`snapshot.eventBar`): the current state's
 * event buttons (each sends its UI event through history with its label as the message text); at
 * a final state the end note and Start over; right after a restart the first screen's chips again.
 * Disabled while a reply streams or a dialog waits. The markup of chatrail/react's `<EventButtons>`.
 */
export const EventButtons = defineComponent({
  name: 'EventButtons',
  props: { ...chatProp, label: { type: String, default: undefined } },
  setup(props) {
    const chat = useChatFrom(props.chat, 'EventButtons')
    return () => {
      const { eventBar: bar, labels } = chat.snapshot.value
      if (bar.mode === 'restarted') return h('div', { 'data-chatrail-events': '', 'data-chatrail-restarted': '' }, [suggestionChips(chat, bar.suggestions, bar.disabled)])
      const buttons = bar.buttons.map(({ uiEvent, label }) =>
        h('button', { key: uiEvent, type: 'button', 'data-chatrail-event-button': uiEvent, disabled: bar.disabled, onClick: () => { void chat.sendEvent(uiEvent, label) } }, label))
      if (bar.mode === 'end') {
        const restart = bar.restart
        return h('div', { role: 'group', 'aria-label': labels.conversationEnded, 'data-chatrail-events': '', 'data-chatrail-end': '' }, [
          h('p', { 'data-chatrail-end-note': '' }, labels.endNote),
          restart === undefined ? null : h('button', {
            type: 'button',
            'data-chatrail-start-over': '',
            'data-chatrail-event-button': restart.uiEvent,
            disabled: bar.disabled,
            onClick: (event: MouseEvent) => { focusInput(event.currentTarget); void chat.sendEvent(restart.uiEvent, restart.label) },
          }, restart.label),
          ...buttons,
        ])
      }
      if (buttons.length === 0) return null
      return h('div', { role: 'group', 'aria-label': props.label ?? labels.actions, 'data-chatrail-events': '' }, buttons)
    }
  },
})
