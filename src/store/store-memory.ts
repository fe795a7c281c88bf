import type { ChatMemory } from '../contract/memory.js'
import type { Message } from '../contract/message.js'
import type { ConversationStore, DefinitionRef, Lease } from './conversation-store.js'
import { DefinitionMismatchError, isStoreUnavailableError } from './store-errors.js'

/**
 * A `ChatMemory` (AgentsKit's `{ load, save, clear }`) backed by a `ConversationStore`, so the
 * upstream-style controller persists through the store without glue.
 *
 * The controller saves its whole history on every change; this memory writes only settled
 * histories (no message `pending` or `streaming`) and only what changed: a grown history is one
 * append of the new messages (O(turn)); an edit, regenerate or retry is one truncate-and-append
 * after the last unchanged message. Every write is compare-and-swap on the version this memory
 * last saw, so two tabs writing one conversation never overwrite each other silently: the loser's
 * write fails with `StoreConflictError`, the memory stops writing (`error()`), and the host
 * reopens the conversation. A store that is down (`StoreUnavailableError`) wrote nothing, so the
 * memory keeps going: the next save writes everything not yet stored. The controller swallows
 * memory failures (upstream §2.11), so read them from `onError` or `flushed()`.
 */

export interface StoreMemoryOptions {
  readonly conversationId: string
  readonly definition: DefinitionRef
  /** What the store holds now (skip the first `load` round trip); from `store.load`. */
  readonly baseline?: { readonly version: number; readonly messages: readonly Message[] }
  /** The turn lease this memory's writes carry (from `store.claim`), when the host fences turns. */
  readonly lease?: Pick<Lease, 'turnId' | 'token'>
  /** Called with every failed write (a conflict, the store being down). */
  readonly onError?: (error: unknown) => void
}

export interface StoreMemory extends ChatMemory {
  /** The stored version this memory last read or wrote (0: nothing stored yet). */
  version: () => number
  /** Resolves when every save queued so far has been written; rejects with the first failure since the last call. */
  flushed: () => Promise<void>
  /** The failure that stopped this memory (a conflict, a fenced lease, another definition), if any. */
  error: () => unknown
}

/** No message still being written. The controller only ever streams at the end of history, so the tail decides (O(1) per change). */
const settled = (messages: readonly Message[]): boolean => {
  for (let i = messages.length - 1; i >= 0 && i >= messages.length - 2; i--) {
    const status = messages[i]?.status
    if (status === 'streaming' || status === 'pending') return false
  }
  return true
}

export function storeMemory(store: ConversationStore, options: StoreMemoryOptions): StoreMemory {
  const { conversationId, definition } = options
  let version = options.baseline?.version ?? 0
  // The messages as last stored: objects for an identity check, JSON for when identity differs.
  let stored: readonly Message[] = options.baseline?.messages ?? []
  let storedJson: (string | undefined)[] = []
  let loaded = options.baseline !== undefined
  let failure: unknown
  let unflushed: unknown[] = []
  let queue: Promise<void> = Promise.resolve()

  const same = (i: number, message: Message): boolean => {
    if (stored[i] === message) return true
    storedJson[i] ??= JSON.stringify(stored[i])
    return storedJson[i] === JSON.stringify(message)
  }

  async function write(messages: readonly Message[]): Promise<void> {
    if (failure !== undefined || !settled(messages)) return
    if (!loaded) await load()
    let common = 0
    const limit = Math.min(messages.length, stored.length)
    while (common < limit && same(common, messages[common] as Message)) common += 1
    if (common === messages.length && common === stored.length) return
    const added = messages.slice(common)
    const truncated = common < stored.length
    const result = await store.append(conversationId, {
      expectedVersion: version,
      messages: added,
      definition,
      ...(options.lease ? { lease: options.lease } : {}),
      ...(truncated ? { truncateAfter: common === 0 ? null : (stored[common - 1] as Message).id } : {}),
    })
    version = result.version
    stored = result.status === 'duplicate' ? [...stored.slice(0, common), ...result.messages] : messages.slice()
    storedJson = truncated || result.status === 'duplicate' ? [] : storedJson
  }

  const enqueue = (work: () => Promise<void>): Promise<void> => {
    const next = queue.then(work).catch((error: unknown) => {
      if (!isStoreUnavailableError(error)) failure ??= error
      unflushed.push(error)
      options.onError?.(error)
    })
    queue = next
    return next
  }

  async function load(): Promise<Message[]> {
    const conversation = await store.load(conversationId)
    if (conversation && conversation.definition.id !== definition.id) throw new DefinitionMismatchError(conversationId, conversation.definition.id, definition.id)
    version = conversation?.version ?? 0
    stored = conversation?.messages ?? []
    storedJson = []
    loaded = true
    return [...stored]
  }

  return {
    load: () => (options.baseline && stored === options.baseline.messages ? [...stored] : load()),
    // Checked before queueing: a controller calls save on every streamed chunk.
    save: (messages) => (failure === undefined && settled(messages) ? enqueue(() => write(messages)) : queue),
    clear: () => enqueue(() => write([])),
    version: () => version,
    async flushed() {
      await queue
      const [first] = unflushed
      unflushed = []
      if (first !== undefined) throw first
    },
    error: () => failure,
  }
}
