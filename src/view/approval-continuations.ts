/**
 * Within one page: an approval card told the server's answer continues (`approve-action` /
 * `reject-action` answered `continuing: true`: chatrail/server resumed the answer paused on that
 * call), and the remote chat binding of the same conversation shows the continued answer, with no
 * new user message. The approval source announces (approval-source.ts), the binding listens
 * (remote-chat-binding.ts): neither holds the other, as a page makes them separately. Keyed by the
 * handler's URL and the conversation; kept on `globalThis` under a registered symbol so two copies
 * of this module in one page (an ESM and a CJS build) still meet.
 */

type Listeners = Map<string, Set<() => void>>

const KEY = Symbol.for('chatrail.view.approvalContinuations')

function registry(): Listeners {
  const holder = globalThis as { [KEY]?: Listeners }
  return (holder[KEY] ??= new Map())
}

const keyOf = (api: string, conversationId: string): string => `${api}\n${conversationId}`

/** Tells the listeners of `conversationId` at `api` that the server continues its paused answer now. */
export function announceContinuation(api: string, conversationId: string): void {
  for (const listener of [...(registry().get(keyOf(api, conversationId)) ?? [])]) {
    try {
      listener()
    } catch {
      // one listener's failure must not keep the others from hearing it
    }
  }
}

/** Listens for continuations of `conversationId` at `api`; returns the unsubscribe. */
export function onContinuation(api: string, conversationId: string, listener: () => void): () => void {
  const key = keyOf(api, conversationId)
  const all = registry()
  let set = all.get(key)
  if (!set) all.set(key, (set = new Set()))
  set.add(listener)
  return () => {
    set.delete(listener)
    if (set.size === 0 && all.get(key) === set) all.delete(key)
  }
}
