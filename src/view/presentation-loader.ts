import { lazyModule } from '../controller/lazy-module.js'
import type { LabelledSuggestion } from './event-bar.js'
import type { Presentation } from './presentation.js'
import type { PresentationRulesSource } from './presentation-rules.js'

/**
 * The presentation rules loaded on first use (`import()` of presentation-kit.ts), shared by every
 * lazy view of the page (lazy-chat-view.ts): each awaits the same load. Its own module:
 * chatrail/view's entry, whose `createChatView` imports the rules statically, never holds this `import()`.
 */
const noSuggestions: readonly LabelledSuggestion[] = []

/** Before the rules are in: nothing offered, nothing reported (`presentationReady` false). */
const noPresentation: Presentation = {
  regenerable: undefined,
  eventBar: { mode: 'buttons', buttons: [], restart: undefined, suggestions: noSuggestions, disabled: true },
  suggestions: noSuggestions,
  latestVersions: undefined,
  failure: undefined,
}

const rules = lazyModule(() => import('./presentation-kit.js'))

/** The rules loaded on first use (at most once; a failed load may be tried again by the next subscribe). */
export const lazyPresentationRules: PresentationRulesSource = {
  current: () => rules.loaded() ?? noPresentation,
  load: rules.load,
}
