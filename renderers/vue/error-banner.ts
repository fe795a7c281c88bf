import { defineComponent, h } from 'vue'
import { chatProp } from './chat-prop.js'
import { useChatFrom } from './chat-context.js'
import { focusInput } from './suggestions.js'

/**
 * The failure the view reports (`snapshot.failure`: a failed turn, or an agent the fallback
 * answered for) as a banner (`div[role=alert][data-chatrail-error]`): what happened, its cause,
 * what to do, Retry (the focus goes to the composer, as the banner leaves while the turn runs)
 * and a dismiss. The markup of chatrail/react's `<ErrorBanner>`.
 */
export const ErrorBanner = defineComponent({
  name: 'ErrorBanner',
  props: chatProp,
  setup(props) {
    const chat = useChatFrom(props.chat, 'ErrorBanner')
    return () => {
      const { failure, labels } = chat.snapshot.value
      if (failure === undefined) return null
      return h('div', { role: 'alert', 'data-chatrail-error': '' }, [
        h('p', { 'data-chatrail-error-message': '' }, [h('strong', failure.message), ...(failure.cause === undefined ? [] : [' ', h('span', { 'data-chatrail-error-cause': '' }, failure.cause)])]),
        h('p', { 'data-chatrail-error-hint': '' }, failure.hint),
        h('button', { type: 'button', 'data-chatrail-error-retry': '', onClick: (event: MouseEvent) => { focusInput(event.currentTarget); void chat.retry() } }, labels.retry),
        h('button', { type: 'button', 'data-chatrail-error-dismiss': '', 'data-chatrail-icon-button': '', 'aria-label': labels.dismiss, title: labels.dismiss, onClick: () => chat.dismissFailure() }, '×'),
      ])
    }
  },
})
