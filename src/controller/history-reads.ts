import type { Message } from '../contract/message.js'
import type { ChatSnapshot } from './chat-state.js'

/**
 * Reading a long history without building its array. Apart from chat-state.ts, so that a turn's
 * code, loaded on first use (model-turn-loader.ts), reads history without reaching the state's
 * modules (see turn-measures.ts for why that matters to an app's first screen).
 */

/**
 * From this many messages on, a state's `messages` (and a model request's) is built on first read
 * instead of with the state. Below it, copying the array (≈1 ns a message) costs less than the
 * lazy state (≈0.2 µs to build, measured on Node 20).
 */
export const LAZY_MESSAGES_FROM = 256

/** The message `id` in `snapshot`, searched from the end without building the array. */
export function findMessage({ list }: ChatSnapshot, id: string): Message | undefined {
  const index = list.indexOfId(id)
  return index < 0 ? undefined : list.at(index)
}
