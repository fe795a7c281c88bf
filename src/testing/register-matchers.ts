// Registers the chatrail matchers and the trace snapshot serializer with vitest's `expect` when
// loaded. Only chatrail/testing/vitest (src/testing/vitest.ts) imports this file; it re-exports
// the two values below, which also keeps a bundler from dropping the module as side-effect free.
import * as vitest from 'vitest'
import { chatrailMatchers } from './matchers.js'
import { traceSnapshotSerializer, traceSnapshotValue } from './trace-snapshot-serializer.js'
import type { TraceSnapshotOptions } from './trace-snapshot.js'

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
