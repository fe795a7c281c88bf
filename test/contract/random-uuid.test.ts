import { afterEach, describe, expect, it, vi } from 'vitest'
import { randomUUID } from '../../src/contract/random-uuid.js'
import { defaultIds } from '../../src/controller/ids.js'
import { commandRoute, createChatSession, defineChat } from '../../src/index.js'

// A page served over plain http from another host is not a secure context: browsers leave
// `crypto.randomUUID` out there, while `getRandomValues` stays. Ids must not depend on the former.
describe('ids without crypto.randomUUID (an insecure browser context)', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('randomUUID is a v4 UUID from getRandomValues, different every call', () => {
    const ids = new Set(Array.from({ length: 200 }, () => randomUUID()))
    expect(ids.size).toBe(200)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('message ids and session ids are made when crypto.randomUUID throws', () => {
    vi.spyOn(globalThis.crypto, 'randomUUID').mockImplementation(() => {
      throw new TypeError('crypto.randomUUID is not a function')
    })
    expect(defaultIds()).toMatch(/^msg-[0-9a-f-]{36}$/)
    const definition = defineChat({ id: 'ids', chat: {}, conversation: { initial: 'a', states: { a: {} }, routes: [commandRoute({ id: 'hi', command: '/hi', response: 'Hi.' })], fallback: { response: '?' } } })
    expect(createChatSession(definition, { lint: false }).sessionId).toMatch(/^[0-9a-f-]{36}$/)
  })
})
