import type { LabelledSuggestion } from './event-bar.js'
import type { Presentation } from './presentation.js'
import type { PresentationRules, PresentationRulesSource } from './presentation-rules.js'

/**
 * The presentation rules loaded on first use (`import()` of presentation-kit.ts), shared by every
 * lazy view of the page (lazy-chat-view.ts): each awaits the same load. Its own module:
 * chatrail/view's entry, whose `createChatView` imports the rules statically, never holds this `import()`.
 */
const noSuggestions: readonly LabelledSuggestion[] = []

/** Before the rules are in: nothing offered, nothing reported (`presentationReady` false). */
const noPresentation: Presentation = {
  lifecycle: { userId: undefined, assistantId: undefined, canRetry: false },
  regenerable: undefined,
  eventBar: { mode: 'buttons', buttons: [], restart: undefined, suggestions: noSuggestions, disabled: true },
  suggestions: noSuggestions,
  latestVersions: undefined,
  failure: undefined,
}

let loaded: PresentationRules | undefined
let loading: Promise<PresentationRules> | undefined

/** The rules loaded on first use (at most once; a failed load may be tried again by the next subscribe). */
export const lazyPresentationRules: PresentationRulesSource = {
  current: () => loaded ?? noPresentation,
  load: () => {
    loading ??= import('./presentation-kit.js').then(
      (rules) => {
        loaded = rules
        return rules
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  },
}
