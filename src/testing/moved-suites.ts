import { ChatrailError } from '../contract/errors.js'
import type { AdapterFactory } from '../contract/adapter.js'
import type { AdapterContractOptions } from './conformance/adapter-contract.js'
import type { ReaderUnderContract } from './conformance/reader-contract.js'

/**
 * The conformance suites moved to `chatrail/testing/vitest`, so that `chatrail/testing` loads
 * without vitest and from CommonJS. A working re-export here would have to import vitest (the
 * suites call `describe`/`it` while vitest collects, synchronously), which is exactly what the move
 * avoids; so for one release the old names stay importable and fail at once with the new path.
 */

function moved(name: string): ChatrailError {
  return new ChatrailError({
    code: 'MOVED_TO_TESTING_VITEST',
    message: `${name} moved from chatrail/testing to chatrail/testing/vitest`,
    hint: `import { ${name} } from 'chatrail/testing/vitest'`,
  })
}

/** @deprecated Moved: `import { runAdapterContract } from 'chatrail/testing/vitest'`. This stub throws; it goes in the next release. */
export function runAdapterContract<F extends AdapterFactory>(_name: string, _makeFactory: () => F, _options?: AdapterContractOptions<F>): never {
  throw moved('runAdapterContract')
}

/** @deprecated Moved: `import { describeReaderContract } from 'chatrail/testing/vitest'`. This stub throws; it goes in the next release. */
export function describeReaderContract(_name: string, _reader: ReaderUnderContract): never {
  throw moved('describeReaderContract')
}
