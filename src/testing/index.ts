// chatrail/testing: test doubles and conformance suites (product, not fixtures). vitest is an
// optional peer: only the suites import it.
export { errorChunk, normalizeScript, scriptedAdapter, ScriptError } from './scripted-adapter.js'
export type { ScriptedAdapter, ScriptedAdapterOptions, ScriptedCall, ScriptedReply, ScriptedStep } from './scripted-adapter.js'
export { runAdapterContract } from './adapter-contract.js'
export type { AdapterContractOptions, AdapterInvariant } from './adapter-contract.js'
export { describeReaderContract } from './reader-contract.js'
export type { ReadChatArgs, ReaderInvariant, ReaderUnderContract } from './reader-contract.js'
