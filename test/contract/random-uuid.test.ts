import { webcrypto } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { randomUUID } from '../../src/contract/random-uuid.js'
import { defaultIds } from '../../src/controller/ids.js'
import { commandRoute, createChatSession, defineChat } from '../../src/index.js'

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Web Crypto as an insecure browser context has it: `getRandomValues` only, calls counted. */
function insecureCrypto(): { calls: () => number } {
  let calls = 0
  vi.stubGlobal('crypto', {
    getRandomValues: <T extends Uint8Array>(array: T): T => {
      calls += 1
      return webcrypto.getRandomValues(array)
    },
  })
  return { calls: () => calls }
}

// A page served over plain http from another host is not a secure context: browsers leave
// `crypto.randomUUID` out there, while `getRandomValues` stays. Ids must not depend on the former.
describe('ids without crypto.randomUUID (an insecure browser context)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('randomUUID is a v4 UUID where the runtime has crypto.randomUUID', () => {
    const ids = new Set(Array.from({ length: 200 }, () => randomUUID()))
    expect(ids.size).toBe(200)
    for (const id of ids) expect(id).toMatch(V4)
  })

  it('without it, v4 UUIDs from getRandomValues, unique across pool refills, one call per 256 ids', () => {
    const crypto = insecureCrypto()
    const ids = new Set(Array.from({ length: 1000 }, () => randomUUID()))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(id).toMatch(V4)
    // 16 bytes an id from a 4 KB pool: at most ⌈1000 / 256⌉ + 1 fills (one may be left from an earlier test).
    expect(crypto.calls()).toBeGreaterThanOrEqual(3)
    expect(crypto.calls()).toBeLessThanOrEqual(5)
  })

  it('message ids and session ids are made without crypto.randomUUID', () => {
    insecureCrypto()
    expect(defaultIds()).toMatch(/^msg-[0-9a-f-]{36}$/)
    const definition = defineChat({ id: 'ids', chat: {}, conversation: { initial: 'a', states: { a: {} }, routes: [commandRoute({ id: 'hi', command: '/hi', response: 'Hi.' })], fallback: { response: '?' } } })
    expect(createChatSession(definition, { lint: false }).sessionId).toMatch(V4)
  })
})
