/**
 * A single-consumer async queue: producers `push` from callbacks (stdout lines, exits), the
 * consumer awaits `next()`. After `close()`, queued items still drain, then `next()` reports done.
 * `clear()` drops what is queued (an aborted stream yields nothing more).
 */

export interface AsyncQueue<T> {
  push: (item: T) => void
  close: () => void
  clear: () => void
  next: () => Promise<IteratorResult<T, undefined>>
  readonly closed: boolean
}

export function createAsyncQueue<T>(): AsyncQueue<T> {
  const items: T[] = []
  let waiter: ((result: IteratorResult<T, undefined>) => void) | undefined
  let closed = false

  function wake(): void {
    if (!waiter) return
    const resolve = waiter
    if (items.length > 0) {
      waiter = undefined
      resolve({ done: false, value: items.shift() as T })
    } else if (closed) {
      waiter = undefined
      resolve({ done: true, value: undefined })
    }
  }

  return {
    push(item) {
      if (closed) return
      items.push(item)
      wake()
    },
    close() {
      closed = true
      wake()
    },
    clear() {
      items.length = 0
      wake()
    },
    next() {
      if (items.length > 0) return Promise.resolve({ done: false, value: items.shift() as T })
      if (closed) return Promise.resolve({ done: true, value: undefined })
      return new Promise((resolve) => {
        waiter = resolve
      })
    },
    get closed() {
      return closed
    },
  }
}
