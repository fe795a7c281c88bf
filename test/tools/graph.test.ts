import { describe, expect, it } from 'vitest'
import { defineChat } from '../../src/conversation/define-chat.js'
import { toDot, toMermaid } from '../../src/conversation/mermaid.js'
import { commandRoute } from '../../src/conversation/routes.js'
import * as chatrail from '../../src/index.js'
import * as tools from '../../src/conversation/tools.js'
import { lostCard } from './fixtures/lost-card.js'

/** The state diagram: every state, labelled transitions, final states, global transitions once. */

describe('toMermaid', () => {
  it('draws states, labelled transitions, guards, final states and conversation-level transitions once', () => {
    expect(toMermaid(lostCard)).toBe(`stateDiagram-v2
  state "any non-final state" as any_state
  [*] --> greeting
  greeting --> identify: start (start)
  identify --> confirm: identified (last4)
  confirm --> done: confirm (yes, yes-button, vip) [guarded]
  confirm --> identify: change (anything)
  any_state --> cancelled: cancel (cancel)
  any_state --> greeting: help (help) — not in confirm
  done --> greeting: restart (again)
  cancelled --> greeting: restart (again)
  done --> [*]
  cancelled --> [*]
`)
  })

  it('gives states whose names Mermaid cannot take as ids a safe id and keeps the name as the label', () => {
    const text = toMermaid(defineChat({
      id: 'names',
      chat: {},
      conversation: {
        initial: 'step-1',
        states: { 'step-1': { on: { go: 'step.2' } }, 'step.2': { on: { go: 'state' } }, state: { final: true } },
        routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' })],
        fallback: { response: '?' },
      },
    }))
    expect(text).toContain('  state "step-1" as s_step_1\n  state "step.2" as s_step_2\n  state "state" as s_state\n')
    expect(text).toContain('  s_step_1 --> s_step_2: go (go)\n')
    expect(text).toContain('  s_state --> [*]\n')
  })

  it('draws restarts allowed everywhere once, from an "any state" node, and groups restarts per state', () => {
    const text = toMermaid(defineChat({
      id: 'restarts',
      chat: {},
      conversation: {
        initial: 'a',
        states: { a: { on: { go: 'b' } }, b: { final: true } },
        routes: [
          commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' }),
          commandRoute({ id: 'reset', command: '/reset', restart: true, response: 'again' }),
          commandRoute({ id: 'again', command: '/again', restart: true, states: ['b'], response: 'again' }),
          commandRoute({ id: 'anew', command: '/anew', restart: true, states: ['b'], response: 'again' }),
        ],
        fallback: { response: '?' },
      },
    }))
    expect(text).toContain('  state "any state" as every_state\n')
    expect(text).toContain('  every_state --> a: restart (reset)\n  b --> a: restart (again, anew)\n')
  })

  it('is a synchronous export of chatrail (as issue 19 names it) and of chatrail/tools; toDot only of chatrail/tools', () => {
    expect(chatrail.toMermaid(lostCard)).toBe(toMermaid(lostCard))
    expect(tools.toMermaid(lostCard)).toBe(toMermaid(lostCard))
    expect(tools.toDot(lostCard)).toBe(toDot(lostCard))
    expect(Object.keys(chatrail)).not.toEqual(expect.arrayContaining(['toDot']))
  })
})

describe('toDot', () => {
  it('draws the same graph for Graphviz: final states with a double border, shared nodes dashed', () => {
    const dot = toDot(lostCard)
    expect(dot.startsWith('digraph "lost-card" {\n')).toBe(true)
    expect(dot).toContain('  "done" [peripheries=2]\n')
    expect(dot).toContain('  "[*]" -> "greeting"\n')
    expect(dot).toContain('  "confirm" -> "done" [label="confirm (yes, yes-button, vip) [guarded]"]\n')
    expect(dot).toContain('  "any non-final state" -> "greeting" [label="help (help) — not in confirm", style=dashed]\n')
    expect(dot.trimEnd().endsWith('}')).toBe(true)
  })
})
