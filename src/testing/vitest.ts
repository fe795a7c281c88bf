// chatrail/testing/vitest: `import 'chatrail/testing/vitest'` registers the chatrail matchers with
// vitest's `expect` and declares their types. The one entry (with define-conversation-tests.ts)
// that imports vitest, an optional peer: chatrail/testing itself runs without it.
import * as vitest from 'vitest'
import type { TurnKind } from '../index.js'
import { chatrailMatchers } from './matchers.js'
import { traceSnapshotSerializer, traceSnapshotValue } from './trace-snapshot-serializer.js'
import type { TraceSnapshotOptions } from './trace-snapshot.js'

/** The matchers' signatures; `R` is what each returns in the augmented interface. */
export interface ChatrailMatchers<R = unknown> {
  /** The turn was answered by route `routeId`. */
  toRoute: (routeId: string) => R
  /** The turn's trace kind: `deterministic`, `agentic`, `repaired` or `fallback`. */
  toBeKind: (kind: TurnKind) => R
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

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type --
   declaration merging: the interfaces must repeat vitest's own heads (`Assertion<T = any>`) exactly, and their members come from ChatrailMatchers */
declare module 'vitest' {
  interface Assertion<T = any> extends ChatrailMatchers<void> {}
  interface AsymmetricMatchersContaining extends Omit<ChatrailMatchers<unknown>, 'toMatchTraceSnapshot'> {}
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type */

// Read as a namespace member: `Snapshots` (custom snapshot matchers) arrived in vitest 4.1, and a
// missing named import would fail at link time on older 4.x instead of at the matcher.
const snapshots = (vitest as { Snapshots?: typeof vitest.Snapshots }).Snapshots

vitest.expect.addSnapshotSerializer(traceSnapshotSerializer)
vitest.expect.extend({
  ...chatrailMatchers,
  toMatchTraceSnapshot(received: unknown, options?: TraceSnapshotOptions) {
    const value = traceSnapshotValue(received, options)
    if (!value.ok) return { pass: false, message: () => `toMatchTraceSnapshot: ${value.message}` }
    if (snapshots === undefined) return { pass: false, message: () => 'toMatchTraceSnapshot needs vitest 4.1 or later (vitest.Snapshots)' }
    return snapshots.toMatchSnapshot.call(this, value.snapshot)
  },
})

export { chatrailMatchers, traceSnapshotSerializer }
export { defineConversationTests } from './define-conversation-tests.js'
export type { ConversationTestsOptions } from './define-conversation-tests.js'
