import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { appendSettled, reprintBranch } from '../../renderers/ink/printed-log.js'

// A switch to another version prints it again below (a terminal cannot take lines back), and the
// log goes on from there: nothing printed twice by the next appendSettled (issue #31 item 9).
const message = (id: string, role: Message['role'], content: string, status: Message['status'] = 'complete'): Message => ({ id, role, content, status, createdAt: new Date(0) })

describe('reprintBranch', () => {
  it('prints the branch from the place on, the first marked with its version, with keys of its own', () => {
    const first = [message('u', 'user', 'q'), message('a1', 'assistant', 'first')]
    const second = [first[0] as Message, message('a2', 'assistant', 'second')]
    let printed = appendSettled([], first)
    printed = appendSettled(printed, second)
    printed = reprintBranch(printed, first, 1, 'version 1/2')
    expect(printed.map((entry) => entry.kind === 'message' ? [entry.message.content, entry.version] : [])).toEqual([['q', undefined], ['first', undefined], ['second', undefined], ['first', 'version 1/2']])
    expect(new Set(printed.map((entry) => entry.key)).size).toBe(printed.length)
    // the same version again later is a reprint of its own
    const again = reprintBranch(reprintBranch(printed, second, 1, 'version 2/2'), first, 1, 'version 1/2')
    expect(new Set(again.map((entry) => entry.key)).size).toBe(again.length)
    // appendSettled over the switched-to history prints nothing more, then a new reply once
    expect(appendSettled(printed, first)).toBe(printed)
    const next = appendSettled(printed, [...first, message('u2', 'user', 'next')])
    expect(next.slice(printed.length).map((entry) => entry.kind === 'message' ? entry.message.content : '')).toEqual(['next'])
  })

  it('stops at a message still streaming, and returns the log itself when nothing settled', () => {
    const printed = appendSettled([], [message('u', 'user', 'q')])
    expect(reprintBranch(printed, [message('u', 'user', 'q'), message('a', 'assistant', '', 'streaming')], 1, 'version 1/2')).toBe(printed)
  })
})
