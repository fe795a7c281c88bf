// chatrail/testing/vitest: everything that needs vitest, an optional peer, so that chatrail/testing
// itself loads without it (and from CommonJS). `import 'chatrail/testing/vitest'` registers the
// chatrail matchers with vitest's `expect` (register-matchers.ts) and declares their types below.
// The rest of this file is a list of named exports: conformance suites live in conformance/.
import type { TurnKind, TurnOutcome } from '../index.js'
import type { TraceSnapshotOptions } from './trace-snapshot.js'

/** The matchers' signatures; `R` is what each returns in the augmented interface. */
export interface ChatrailMatchers<R = unknown> {
  /** The turn was answered by route `routeId`. */
  toRoute: (routeId: string) => R
  /** The turn's trace kind: `deterministic`, `agentic`, `repaired` or `fallback`. */
  toBeKind: (kind: TurnKind) => R
  /** The turn's trace outcome: `ok`, `error`, `aborted`, `refused`, `unavailable` or `timeout`. */
  toHaveOutcome: (outcome: TurnOutcome) => R
  /** The turn went from state `from` to state `to`. */
  toTransition: (from: string, to: string) => R
  /** The session is (or, after the turn, was) in `state`. */
  toBeInState: (state: string) => R
  /** The session context matches `partial` (recursive partial match, arrays exact). */
  toHaveContext: (partial: Record<string, unknown>) => R
  /** Exactly `count` calls reached the agentic adapter. */
  toMakeModelCalls: (count: number) => R
  /** The turn was served from the decision cache (retry/regenerate). */
  toBeReplayed: () => R
  /** Snapshot of the traces with ids, timestamps and durations scrubbed. */
  toMatchTraceSnapshot: (options?: TraceSnapshotOptions) => R
}

// `Matchers`, not `Assertion` (vitest 4's documented way): `Assertion` is declared twice (in
// @vitest/expect, and augmented by vitest's own globals) and re-exported by `vitest`, and an
// augmentation of it through `vitest` merged only when vitest's types were loaded first: with
// `import 'chatrail/testing/vitest'` above `import { expect } from 'vitest'`, the built .d.ts
// (which imports nothing from vitest) came first and `toRoute` was TS2339. `Matchers` has one
// declaration, which `Assertion` and `ExpectStatic` extend, so it merges in either order. Both
// interfaces here give the matchers the same types: `ExpectStatic` extends both, and members of the
// same name that differ would be TS2320 in vitest's own declarations (without skipLibCheck).
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type --
   declaration merging: the interfaces must repeat vitest's own heads (`Matchers<T = any>`) exactly, and their members come from ChatrailMatchers */
declare module 'vitest' {
  interface Matchers<T = any> extends ChatrailMatchers<void> {}
  interface AsymmetricMatchersContaining extends Omit<ChatrailMatchers<void>, 'toMatchTraceSnapshot'> {}
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type */

export { chatrailMatchers, traceSnapshotSerializer } from './register-matchers.js'
export { defineConversationTests } from './conversations/define-conversation-tests.js'
export type { ConversationTestsOptions } from './conversations/define-conversation-tests.js'
export { runAdapterContract } from './conformance/adapter-contract.js'
export type { AdapterContractOptions, AdapterInvariant } from './conformance/adapter-contract.js'
export { describeReaderContract } from './conformance/reader-contract.js'
export type { ReadChatArgs, ReaderInvariant, ReaderUnderContract } from './conformance/reader-contract.js'
export { describeStoreContract } from './conformance/store-contract.js'
export type { StoreContractConfig, StoreContractOptions, StoreInvariant } from './conformance/store-contract.js'
