import type * as ComponentKit from './component-kit.js'

/**
 * Loading the view's component rules (component-kit.ts) on first use, once per page: every view
 * shares them, and one that loaded them answers at once from then on. A chat without component
 * parts never loads them (the same reason the session loads its interaction judge on the first
 * interaction, and chatrail/react its component views on the first component).
 */
export type ComponentRules = typeof ComponentKit

let loaded: ComponentRules | undefined
let loading: Promise<ComponentRules> | undefined
const waiting = new Set<() => void>()

/** The rules, when loaded. */
export function componentRules(): ComponentRules | undefined {
  return loaded
}

/** Loads the rules (at most once; a failed load may be tried again) and tells every view waiting for them. */
export function loadComponentRules(): Promise<ComponentRules> {
  loading ??= import('./component-kit.js').then(
    (rules) => {
      loaded = rules
      for (const listener of [...waiting]) listener()
      return rules
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/** Calls `listener` once the rules are in; returns the unsubscribe. */
export function whenComponentRules(listener: () => void): () => void {
  waiting.add(listener)
  return () => { waiting.delete(listener) }
}
