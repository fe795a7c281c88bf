// chatrail/store: the ConversationStore port, its three stores, and the glue that lets a session
// and a controller persist through one. pg and PGlite are optional peers loaded by their store only.
export { memoryStore } from './memory-store.js'
export { pgliteStore } from './pglite-store.js'
export type { PgliteStoreOptions } from './pglite-store.js'
export { postgresStore } from './postgres-store.js'
export type { PostgresStoreOptions } from './postgres-store.js'
export type {
  AppendInput,
  AppendResult,
  ClaimResult,
  ConversationStamp,
  ConversationStore,
  ConversationSummary,
  DefinitionRef,
  Lease,
  LeaseOutcome,
  ListOptions,
  ListOrder,
  ListPage,
  LoadOptions,
  MessageRange,
  StoredConversation,
  StoreOptions,
  StoreWake,
  TurnSignal,
  TurnSignals,
} from './conversation-store.js'
export { DEFAULT_MAX_MESSAGE_BYTES } from './message-codec.js'
export { DEFAULT_MAX_TURN_PARTS_BYTES, TURN_PARTS_RETENTION_MS } from './turn-parts.js'
export type { TurnLeaseState, TurnPartsAppend, TurnPartsAppendResult, TurnPartsRead, TurnPartsReadOptions, TurnPartsRecord } from './turn-parts.js'
export {
  DefinitionMismatchError,
  OwnerMismatchError,
  isDefinitionMismatchError,
  isOwnerMismatchError,
  isRevisionMismatchError,
  isStoreConflictError,
  isStoreCorruptRowError,
  isStoreLeaseError,
  isStoreMessageTooLargeError,
  isStoreUnavailableError,
  RevisionMismatchError,
  StoreConflictError,
  StoreCorruptRowError,
  StoreLeaseError,
  StoreMessageTooLargeError,
  StoreUnavailableError,
} from './store-errors.js'
export { storeMemory } from './store-memory.js'
export type { StoreMemory, StoreMemoryOptions } from './store-memory.js'
export { openStoredChat } from './open-stored-chat.js'
export type { StoreUnavailableDetails } from './store-errors.js'
export type { ChatControllerLike, OpenStoredChatOptions, RevisionPolicy, StoredChat } from './open-stored-chat.js'
export { rederive } from './rederive.js'
export { confirmationLedgerOf } from './confirmation-ledger-of.js'
export type { Rederivation } from './rederive.js'
