import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { HttpError } from '../../src/server/http-responses.js'
import { MAX_VERSION_BYTES, MAX_VERSIONS_PER_PLACE, versionPositions, versionsAfterReplacing, versionsOf, withVersions } from '../../src/server/message-versions.js'
import { planVersionSwitch } from '../../src/server/version-switch.js'

// The server's versions (message-versions.ts, version-switch.ts) as pure functions over a stored
// history, for any sequence of sends, edits, regenerates and switches, each write going through
// JSON as a store keeps it: the visible history stays user/reply turns, a place never has more than
// MAX_VERSIONS_PER_PLACE versions, an edit or regenerate adds one (up to the bound), and switching
// any place to any of its versions and back gives the very same history.

type Command =
  | { kind: 'send' }
  | { kind: 'edit'; pick: number }
  | { kind: 'regenerate'; pick: number }
  | { kind: 'switch'; pick: number; answer: boolean; to: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('send' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(10) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('regenerate' as const), pick: fc.nat(10) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('switch' as const), pick: fc.nat(10), answer: fc.boolean(), to: fc.nat(4) }) },
)

const at = new Date(0)
/** What a store gives back: the JSON it kept, dates revived. */
const stored = (history: readonly Message[]): Message[] => (JSON.parse(JSON.stringify(history)) as Array<Message & { createdAt: string }>).map((message) => ({ ...message, createdAt: new Date(message.createdAt) }))
const shape = (history: readonly Message[]): string[] => history.map((message) => `${message.role}:${message.id}:${message.content}`)

function run(commands: Command[]): void {
  let history: Message[] = []
  let n = 0
  const next = (): number => ++n
  const users = (): number[] => history.flatMap((message, index) => (message.role === 'user' ? [index] : []))
  const reply = (): Message => {
    const id = next()
    return { id: `a${id}`, role: 'assistant', content: `answer ${id}`, status: 'complete', createdAt: at }
  }
  const countAt = (index: number): number => (versionsOf(history[index])?.others.length ?? 0) + 1
  for (const step of commands) {
    const places = users()
    const user = places.length === 0 ? undefined : (places[('pick' in step ? step.pick : 0) % places.length] as number)
    if (step.kind === 'send' || user === undefined) {
      const id = next()
      history = stored([...history, { id: `u${id}`, role: 'user', content: `question ${id}`, status: 'complete', createdAt: at }, reply()])
    } else if (step.kind === 'regenerate') {
      const before = countAt(user + 1)
      const versions = versionsAfterReplacing(history, user + 1, true, 1)
      history = stored([...history.slice(0, user + 1), withVersions(reply(), versions)])
      expect(countAt(user + 1)).toBe(Math.min(before + 1, MAX_VERSIONS_PER_PLACE))
    } else if (step.kind === 'edit') {
      const before = countAt(user)
      const edited: Message = { ...(history[user] as Message), content: `edited ${next()}`, metadata: undefined }
      history = stored([...history.slice(0, user), withVersions(edited, versionsAfterReplacing(history, user, true, 1)), reply()])
      expect(countAt(user)).toBe(Math.min(before + 1, MAX_VERSIONS_PER_PLACE))
    } else {
      const request = { conversationId: 'c', messageId: (history[user] as Message).id, place: step.answer ? 'answer' as const : 'question' as const, index: step.to }
      const position = versionPositions(history)[request.messageId]?.[request.place] ?? { index: 0, count: 1 }
      let write: ReturnType<typeof planVersionSwitch>
      try {
        write = planVersionSwitch(history, request)
      } catch (error) {
        // only an index past the place's versions is refused here
        expect(error).toBeInstanceOf(HttpError)
        expect((error as HttpError).code).toBe('unknown_version')
        expect(step.to).toBeGreaterThanOrEqual(position.count)
        continue
      }
      if (write === undefined) {
        expect(step.to).toBe(position.index)
        continue
      }
      const switched = stored(write.history)
      expect(versionPositions(switched)[request.messageId]?.[request.place]).toEqual({ index: step.to, count: position.count })
      // and back: the very same history
      const back = planVersionSwitch(switched, { ...request, index: position.index })
      expect(back).toBeDefined()
      expect(stored(back!.history)).toEqual(history)
      history = switched
    }
    // the visible history is always user/reply turns, and no place holds more than the bound
    expect(history.map((message) => message.role)).toEqual(history.map((_, index) => (index % 2 === 0 ? 'user' : 'assistant')))
    for (const message of history) expect(countAt(history.indexOf(message))).toBeLessThanOrEqual(MAX_VERSIONS_PER_PLACE)
    expect(new Set(shape(history)).size).toBe(history.length)
  }
}

describe('server versions (message-versions.ts)', () => {
  it('any sequence of sends, edits, regenerates and switches keeps every place within its bound, and a switch round-trips', () => {
    fc.assert(fc.property(fc.array(command, { maxLength: 30 }), (commands) => run(commands)), { numRuns: 200 })
  })

  it(`drops the oldest versions past ${MAX_VERSION_BYTES} bytes, and keeps no single version bigger than that`, () => {
    const big = (id: string, bytes: number): Message => ({ id, role: 'assistant', content: 'x'.repeat(bytes), status: 'complete', createdAt: at })
    const user: Message = { id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: at }
    // three replies of 100 KiB: the third regenerate drops the first (300 KiB > 256 KiB)
    let history = [user, big('a1', 100 * 1024)]
    for (const id of ['a2', 'a3', 'a4']) history = stored([user, withVersions(big(id, 100 * 1024), versionsAfterReplacing(history, 1, true, 1))])
    const versions = versionsOf(history[1])!
    expect(versions.others.map((suffix) => suffix[0]?.id)).toEqual(['a2', 'a3'])
    expect(versions.shown).toBe(2)
    // a single reply over the bound is not kept at all
    expect(versionsAfterReplacing([user, big('huge', MAX_VERSION_BYTES + 1)], 1, true, 1)).toBeUndefined()
  })

  it('reads only a well-formed record of versions: anything else is no versions', () => {
    const message = (versions: unknown): Message => ({ id: 'a', role: 'assistant', content: '', status: 'complete', createdAt: at, metadata: { versions } })
    for (const bad of [null, 'x', { shown: 0, others: [] }, { shown: 2, others: [[{ id: 'b', role: 'assistant', createdAt: '1970-01-01T00:00:00.000Z' }]] }, { shown: 0, others: [[{ id: 1 }]] }, { shown: -1, others: [[]] }]) {
      expect(versionsOf(message(bad))).toBeUndefined()
    }
  })
})
