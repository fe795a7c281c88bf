import { describe, expect, it } from 'vitest'
import { closestName, didYouMean, suggestName } from '../../src/conversation/did-you-mean.js'

/** The one "did you mean" behind definitions, conversation files, the loader and the CLI. */

describe('closestName', () => {
  it('takes the nearest candidate within a third of the longer name (minimum 2), case-insensitively', () => {
    expect(closestName('tset', ['demo', 'inspect', 'test', 'sessions'])).toBe('test')
    expect(closestName('--agnet', ['--agent', '--probe-timeout', '--help'])).toBe('--agent')
    expect(closestName('MENU', ['menu', 'idle'])).toBe('menu')
    expect(closestName('frobnicate', ['demo', 'inspect', 'test', 'sessions'])).toBeUndefined()
    expect(closestName('x', [])).toBeUndefined()
  })

  it('takes a candidate that a name of three or more characters begins, however far by edit distance', () => {
    expect(closestName('claude', ['claude-code', 'codex', 'offline'])).toBe('claude-code')
    expect(closestName('insp', ['demo', 'inspect', 'test'])).toBe('inspect')
    // Two characters are too few to call an abbreviation: "in" is nearest to nothing here.
    expect(closestName('in', ['inspect', 'demo'])).toBeUndefined()
  })

  it('gives ties to the earlier candidate', () => {
    expect(closestName('cat', ['bat', 'hat'])).toBe('bat')
    expect(closestName('cat', ['hat', 'bat'])).toBe('hat')
  })
})

describe('didYouMean and suggestName', () => {
  it('formats a suggestion, or nothing / the declared names when none is close', () => {
    expect(didYouMean('usr', ['user', 'event'])).toBe(' Did you mean "user"?')
    expect(didYouMean('zzzzzz', ['user', 'event'])).toBe('')
    expect(suggestName('idel', ['idle', 'done'], 'state')).toBe('Did you mean "idle"?')
    expect(suggestName('zzzzzz', ['idle', 'done'], 'state')).toBe('Declared states: "idle", "done".')
    expect(suggestName('x', [], 'state')).toBe('No state is declared yet.')
  })
})
