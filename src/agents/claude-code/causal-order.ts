/**
 * Puts transcript lines in logical order. File order is not always causal: Claude Code 2.1.197
 * can write a turn's assistant lines before the prompt and attachments they answer (observed in
 * the recorded `permission-pending` fixture), while every line names its cause in `parentUuid`.
 *
 * A line whose parent has not been committed is held under that parent and committed right after
 * it (its own held children follow it, recursively). Lines without a uuid (metadata) or with a
 * null parent (a chain root) commit at once. Timestamps are not used to reorder: attachments carry
 * timestamps earlier than the prompt they follow, so they would reorder wrongly.
 *
 * A parent that never comes (a window cut out of a longer file, a line lost to a crash) must not
 * hold the rest of the file back forever: once more than `maxHeld` lines are waiting, the oldest
 * is committed in file order. The decision depends only on the sequence of lines, never on how
 * they were split into reads, so an incremental tail orders exactly like a full read.
 */

export interface OrderedLine<T> {
  uuid?: string
  parent?: string
  value: T
}

export interface CausalOrder<T> {
  /** Feeds the next line in file order; commits it now or holds it. */
  push: (line: OrderedLine<T>) => void
  /** Lines still held, in file order (a snapshot applies them provisionally). */
  held: () => T[]
  /** True when the uuid has been committed (duplicate lines are dropped). */
  seen: (uuid: string) => boolean
}

export function createCausalOrder<T>(commit: (value: T) => void, maxHeld = 64): CausalOrder<T> {
  const committed = new UuidSet()
  const waiting = new Map<string, Array<HeldLine<T>>>()
  const heldUuids = new Set<string>()
  let queue: Array<HeldLine<T>> = []
  let heldCount = 0
  let serial = 0

  function commitLine(line: OrderedLine<T>): void {
    // Iterative, so a long held chain cannot overflow the stack.
    const stack: Array<OrderedLine<T>> = [line]
    while (stack.length > 0) {
      const next = stack.pop() as OrderedLine<T>
      if (next.uuid !== undefined) {
        committed.add(next.uuid)
        heldUuids.delete(next.uuid)
      }
      commit(next.value)
      if (next.uuid === undefined) continue
      const children = waiting.get(next.uuid)
      if (children === undefined) continue
      waiting.delete(next.uuid)
      for (let i = children.length - 1; i >= 0; i -= 1) {
        const child = children[i] as HeldLine<T>
        if (child.done) continue
        child.done = true
        heldCount -= 1
        stack.push(child.line)
      }
    }
  }

  function forceOldest(): void {
    while (heldCount > maxHeld) {
      const oldest = queue.find((h) => !h.done)
      if (oldest === undefined) return
      oldest.done = true
      heldCount -= 1
      const parent = oldest.line.parent
      if (parent !== undefined) {
        const siblings = waiting.get(parent)
        if (siblings !== undefined) {
          const rest = siblings.filter((h) => !h.done)
          if (rest.length === 0) waiting.delete(parent)
          else waiting.set(parent, rest)
        }
      }
      commitLine(oldest.line)
    }
    if (queue.length > maxHeld * 4) queue = queue.filter((h) => !h.done)
  }

  return {
    push(line) {
      if (line.uuid !== undefined && (committed.has(line.uuid) || heldUuids.has(line.uuid))) return
      if (line.parent === undefined || line.uuid === undefined || committed.has(line.parent)) {
        commitLine(line)
        return
      }
      const held: HeldLine<T> = { line, done: false, serial: serial++ }
      heldUuids.add(line.uuid)
      const list = waiting.get(line.parent)
      if (list === undefined) waiting.set(line.parent, [held])
      else list.push(held)
      queue.push(held)
      heldCount += 1
      forceOldest()
    },
    held() {
      return queue.filter((h) => !h.done).sort((a, b) => a.serial - b.serial).map((h) => h.line.value)
    },
    seen: (uuid) => committed.has(uuid),
  }
}

interface HeldLine<T> {
  line: OrderedLine<T>
  done: boolean
  serial: number
}

/**
 * The uuids committed so far, keyed by the whole id. Never a digest or a slice of it: time-ordered
 * ids minted in the same minute share most of their digits, and two ids that collided in a short
 * key would make the second line a "duplicate" and drop it (issue 15 item 9). A canonical uuid is
 * kept in a 17-character one-byte form (its hex digits packed two per char), which is less than
 * half the memory of the 36-character text; any other id is kept as it is.
 */
class UuidSet {
  private readonly ids = new Set<string>()

  add(uuid: string): void {
    this.ids.add(compactUuid(uuid))
  }

  has(uuid: string): boolean {
    return this.ids.has(compactUuid(uuid))
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * One-to-one: a lower-case canonical uuid packs to "#" + 16 chars, anything else (upper case
 * included, which is another string) is "~" + itself, so the two forms never meet.
 */
function compactUuid(uuid: string): string {
  if (uuid.length !== 36 || !UUID.test(uuid)) return `~${uuid}`
  const hex = uuid.replaceAll('-', '')
  let packed = '#'
  for (let i = 0; i < 32; i += 2) packed += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16))
  return packed
}
