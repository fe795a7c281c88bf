import type { Message } from '../contract/message.js'

/** How many of the newest messages live in the copied-on-write tail (the streamed ones are there). */
const TAIL = 8

/**
 * Per shared buffer: where each system message's text first appears. A buffer's entries below any
 * list's `frozen` never change (it only grows), so the index is built once, incrementally, and a
 * list asks it only about its own prefix.
 */
const systemTexts = new WeakMap<readonly Message[], { scanned: number; first: Map<string, number> }>()

/**
 * The history behind each `ChatState`, persistent and structurally shared, so that a streamed chunk
 * costs O(1) whatever the history's length (issue 20): `buffer[0, frozen)` is a prefix shared by
 * every list built from it, and `tail` holds the newest messages, which are the ones that change.
 *
 * The buffer is append-only: a list may push onto it only while it is the buffer's owner-extender
 * (`buffer.length === frozen`, `owned`), and older lists read only below their own `frozen`, so a
 * push never changes what they hold. A buffer that came from outside (`from(array)`: an
 * `initialMessages` or `setMessages` array, a `turn-begun` history) is never written: the first
 * flush copies it. Replacing a message inside the frozen prefix (an in-place edit of an old
 * message, `stop()` settling an old tool call) copies the whole list, as every change did before.
 */
export class MessageList {
  /** The list as an array, built on first read and kept: every state sharing this list shares it. */
  private array: Message[] | undefined

  private constructor(
    private readonly buffer: Message[],
    private readonly frozen: number,
    private readonly tail: readonly Message[],
    private readonly owned: boolean,
  ) {}

  /**
   * O(1) up to the tail: `messages` is shared, never written (its newest `TAIL` are copied), and is
   * what `toArray()` returns, so a state built from an array hands that very array back.
   */
  static from(messages: Message[]): MessageList {
    const frozen = Math.max(0, messages.length - TAIL)
    const list = new MessageList(messages, frozen, messages.slice(frozen), false)
    list.array = messages
    return list
  }

  get length(): number {
    return this.frozen + this.tail.length
  }

  at(index: number): Message | undefined {
    return index < this.frozen ? this.buffer[index] : this.tail[index - this.frozen]
  }

  /** Searches from the end: the message being streamed or patched is almost always the last. */
  indexOfId(id: string): number {
    for (let index = this.length - 1; index >= 0; index -= 1) if ((this.at(index) as Message).id === id) return index
    return -1
  }

  /** The list with `message` at `index` (which must exist): O(tail) near the end, O(n) deeper. */
  with(index: number, message: Message): MessageList {
    if (index >= this.frozen) {
      const tail = this.tail.slice()
      tail[index - this.frozen] = message
      return new MessageList(this.buffer, this.frozen, tail, this.owned)
    }
    const all = this.toArray().slice()
    all[index] = message
    return MessageList.from(all)
  }

  /** The list with `messages` appended: amortized O(appended). */
  append(messages: readonly Message[]): MessageList {
    if (messages.length === 0) return this
    const tail = [...this.tail, ...messages]
    if (tail.length <= 2 * TAIL) return new MessageList(this.buffer, this.frozen, tail, this.owned)
    // Flush all but the newest TAIL into the buffer: push when this list may extend it, else copy once.
    const flushed = tail.length - TAIL
    const extend = this.owned && this.buffer.length === this.frozen
    const buffer = extend ? this.buffer : this.buffer.slice(0, this.frozen)
    for (let index = 0; index < flushed; index += 1) buffer.push(tail[index] as Message)
    return new MessageList(buffer, this.frozen + flushed, tail.slice(flushed), true)
  }

  /** `some` over every message, newest first. */
  some(predicate: (message: Message) => boolean): boolean {
    for (let index = this.length - 1; index >= 0; index -= 1) if (predicate(this.at(index) as Message)) return true
    return false
  }

  /**
   * Whether a system message with this exact text is in the list: amortized O(1) at any length
   * (the buffer's part from a shared incremental index, then the tail), where `some` is O(n). The
   * model request asks it on every turn with a `systemPrompt` (issue 20's soak).
   */
  hasSystemText(content: string): boolean {
    for (const message of this.tail) if (message.role === 'system' && message.content === content) return true
    let index = systemTexts.get(this.buffer)
    if (!index) systemTexts.set(this.buffer, (index = { scanned: 0, first: new Map() }))
    for (; index.scanned < this.frozen; index.scanned += 1) {
      const message = this.buffer[index.scanned] as Message
      if (message.role === 'system' && !index.first.has(message.content)) index.first.set(message.content, index.scanned)
    }
    const at = index.first.get(content)
    return at !== undefined && at < this.frozen
  }

  /** True when `messages` is this list's array (handed out by `toArray`, or given to `from`). */
  isArray(messages: readonly Message[]): boolean {
    return this.array === messages
  }

  /**
   * A new array of `before` then the list, the caller's to keep (the model request): O(n), one
   * allocation, not cached.
   */
  copy(before: readonly Message[] = []): Message[] {
    if (this.array) return before.length > 0 ? before.concat(this.array) : this.array.slice()
    return before.concat(this.buffer.length === this.frozen ? this.buffer : this.buffer.slice(0, this.frozen), this.tail)
  }

  /**
   * The list as an array: built in O(n) on the first call, then the same array (never written, as
   * it may be a caller's). `ChatState.messages` reads it, so only a state someone reads pays.
   */
  toArray(): Message[] {
    if (!this.array) {
      const head = this.buffer.length === this.frozen ? this.buffer : this.buffer.slice(0, this.frozen)
      this.array = head.concat(this.tail)
    }
    return this.array
  }
}
