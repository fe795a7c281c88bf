import type { Message } from '../contract/message.js'

/** Where a message stands among the versions of its place in history: `index` of `count`, 0-based. */
export interface BranchPosition {
  index: number
  count: number
}

/** The versions of one place in history: the suffixes that started there, in the order they were made. */
interface BranchPoint {
  /** `versions[active]` is stale while it is visible: the visible history is its truth. */
  versions: Message[][]
  active: number
  /** The id of the active version's first message, to notice a history rewritten from outside. */
  head: string
}

const ROOT = ''

/**
 * The versions of a chat's history (issue #31 item 9), kept beside it by the controller: an edit
 * or a regenerate replaces the suffix from one place on, and the replaced suffix stays here as an
 * earlier version of that place. A place is keyed by the message before it and that message's own
 * version number (`id/version`), because an edited user message keeps its id: the replies under
 * each of its versions are apart. Versions are only appended, so keys and numbers stay stable.
 * Framework-neutral and in memory; switching hands back the history to show.
 */
export class MessageBranches {
  private readonly points = new Map<string, BranchPoint>()
  /** Bumped on every change of `points`, so the keys of a history are computed once per change. */
  private revision = 0
  private cached: { history: readonly Message[]; revision: number; keys: string[]; at: Map<string, number> } | undefined

  /**
   * The key of every place in `history`, O(n) once per history array and change (a renderer asks
   * about every message on every render): a place's key names the message before it and the
   * version that message shows.
   */
  private indexed(history: readonly Message[]): { keys: string[]; at: Map<string, number> } {
    if (this.cached?.history === history && this.cached.revision === this.revision) return this.cached
    const keys: string[] = []
    const at = new Map<string, number>()
    let key = ROOT
    history.forEach((message, index) => {
      keys.push(key)
      at.set(message.id, index)
      const point = this.live(key, message)
      key = `${message.id}/${point?.active ?? 0}`
    })
    this.cached = { history, revision: this.revision, keys, at }
    return this.cached
  }

  private keys(history: readonly Message[]): string[] {
    return this.indexed(history).keys
  }

  /** The point at `key` if `message` is its visible head; one whose head was rewritten from outside is ignored. */
  private live(key: string, message: Message | undefined): BranchPoint | undefined {
    const point = this.points.get(key)
    return point !== undefined && message !== undefined && point.head === message.id ? point : undefined
  }

  /**
   * Records that `history` is about to be replaced from `index` on by a new suffix starting with a
   * message of id `head`: the replaced suffix becomes a version, the new one the active (last).
   */
  fork(history: readonly Message[], index: number, head: string): void {
    const replaced = history.slice(index)
    if (replaced.length === 0) return
    const key = this.keys(history)[index] as string
    this.revision += 1
    const point = this.live(key, history[index])
    if (point === undefined) {
      // A stale point (history set from outside) keeps its versions: the replaced suffix joins them.
      const stale = (this.points.get(key)?.versions ?? []).filter((version) => version.length > 0)
      this.points.set(key, { versions: [...stale, replaced, []], active: stale.length + 1, head })
      return
    }
    point.versions[point.active] = replaced
    point.versions.push([])
    point.active = point.versions.length - 1
    point.head = head
  }

  /** Where `messageId` stands among its place's versions; `{ index: 0, count: 1 }` when it has none. */
  positionOf(history: readonly Message[], messageId: string): BranchPosition {
    if (this.points.size === 0) return { index: 0, count: 1 }
    const { keys, at: positions } = this.indexed(history)
    const at = positions.get(messageId)
    if (at === undefined) return { index: 0, count: 1 }
    const point = this.live(keys[at] as string, history[at])
    return point === undefined ? { index: 0, count: 1 } : { index: point.active, count: point.versions.length }
  }

  /**
   * The history showing version `index` of the place where `messageId` stands (what is visible now
   * is kept as its version), or undefined when there is no such message or version.
   */
  switchTo(history: readonly Message[], messageId: string, index: number): Message[] | undefined {
    const at = history.findIndex((message) => message.id === messageId)
    if (at < 0) return undefined
    const point = this.live(this.keys(history)[at] as string, history[at])
    const chosen = point?.versions[index]
    if (point === undefined || chosen === undefined || index === point.active) return undefined
    this.revision += 1
    point.versions[point.active] = history.slice(at)
    point.active = index
    point.head = (chosen[0] as Message).id
    return [...history.slice(0, at), ...chosen]
  }

  clear(): void {
    this.points.clear()
    this.revision += 1
  }
}
