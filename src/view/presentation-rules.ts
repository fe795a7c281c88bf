import type * as PresentationKit from './presentation-kit.js'
import type { Presentation } from './presentation.js'

/**
 * Where a view store finds its presentation rules (presentation-kit.ts): `createChatView` has them
 * at once (a static import, chat-view.ts); `createLazyChatView` loads them on its first
 * subscribe, once per page (presentation-loader.ts; every view waiting for them awaits the same load).
 */
export type PresentationRules = typeof PresentationKit

export interface PresentationRulesSource {
  /** The rules, or, until they are loaded, what a view shows meanwhile (nothing offered, nothing reported). */
  readonly current: () => PresentationRules | Presentation
  /** Loads them (at most once; a failed load may be tried again). */
  readonly load: () => Promise<PresentationRules>
}
