import { describe, expect, it } from 'vitest'
import { ChatrailConfigError, commandRoute, createChatSession, defineChat } from '../../src/index.js'

// The compile-time side of typed names is test/conversation/typed-names.test-d.ts (run by `npm run
// typecheck`); this file covers the one piece of it that exists at run time: `defineChat<Ctx>()`.

type Ctx = { count: number }

const input = {
  id: 'curried',
  chat: {},
  conversation: {
    initial: 'idle',
    context: { count: 0 },
    states: { idle: { on: { go: 'idle' } } },
    routes: [commandRoute<Ctx>({ id: 'go', command: '/go', event: 'go', response: (_input, ctx) => ({ text: 'ok', assign: { count: ctx.context.count + 1 } }) })],
    fallback: { response: 'Sorry.' },
  },
} as const

describe('defineChat<Ctx>() (fixes the context type, names still inferred)', () => {
  it('returns defineChat itself, which validates and freezes like the direct call', () => {
    const define = defineChat<Ctx>()
    expect(define).toBe(defineChat)
    const curried = define(input)
    expect(curried).toEqual(defineChat<Ctx>(input))
    expect(Object.isFrozen(curried)).toBe(true)
    expect(createChatSession(curried).getSnapshot()).toMatchObject({ state: 'idle', context: { count: 0 }, events: ['go'] })
  })

  it('rejects an invalid definition with the same ChatrailConfigError', () => {
    const broken = { ...input, conversation: { ...input.conversation, initial: 'idel' } }
    // @ts-expect-error the typo is a compile error too; this checks the run-time error behind it
    expect(() => defineChat<Ctx>()(broken)).toThrow(ChatrailConfigError)
  })
})
