import { randomUUID } from '../contract/random-uuid.js'

/**
 * The controller's sources of identity and time. Both are injectable so a whole conversation can
 * be replayed byte for byte; the defaults are collision-free across controllers and processes
 * (UUID v4, never a `Date.now()` counter as upstream uses).
 */

export type IdFactory = () => string
export type Clock = () => Date

// Web Crypto (Node >= 19 and every browser, secure context or not), not node:crypto: the controller also runs in browsers.
export const defaultIds: IdFactory = () => `msg-${randomUUID()}`

export const defaultClock: Clock = () => new Date()
