import { describe, expect, it } from 'vitest'
import { isLoopbackHost, parseServeArgs, parseStoreSpec } from '../../src/cli/serve/serve-args.js'

describe('chatrail serve arguments', () => {
  it('defaults: PGlite in ./.chatrail, port 3000, 127.0.0.1, no token, the definition\'s own agent', () => {
    expect(parseServeArgs(['bot.ts'], {})).toEqual({
      kind: 'run',
      options: { module: 'bot.ts', store: { kind: 'pglite', dataDir: './.chatrail' }, port: 3000, host: '127.0.0.1' },
    })
  })

  it('reads every flag, and CHATRAIL_TOKEN as the token (the flag wins)', () => {
    const parsed = parseServeArgs(['bot.ts', '--store', 'memory', '--port', '0', '--host', 'localhost', '--agent', 'offline'], { CHATRAIL_TOKEN: 'from-env' })
    expect(parsed).toEqual({ kind: 'run', options: { module: 'bot.ts', store: { kind: 'memory' }, port: 0, host: 'localhost', agent: 'offline', token: 'from-env' } })
    expect(parseServeArgs(['bot.ts', '--token=flag'], { CHATRAIL_TOKEN: 'from-env' })).toMatchObject({ kind: 'run', options: { token: 'flag' } })
  })

  it('store specs: memory, pglite:<dir>, postgres URLs; anything else names the three forms', () => {
    expect(parseStoreSpec('pglite:/var/chat')).toEqual({ kind: 'pglite', dataDir: '/var/chat' })
    expect(parseStoreSpec('postgresql://u:p@db/chat')).toEqual({ kind: 'postgres', connectionString: 'postgresql://u:p@db/chat' })
    expect(parseStoreSpec('pglite:')).toBe('--store pglite: needs a directory, e.g. pglite:./.chatrail')
    expect(parseStoreSpec('sqlite:x.db')).toBe('--store sqlite:x.db is not a store; use memory, pglite:<dir> or postgres://user:password@host/db')
  })

  it('refuses a host other machines can reach unless a token is set', () => {
    const refused = parseServeArgs(['bot.ts', '--host', '0.0.0.0'], {})
    expect(refused).toEqual({ kind: 'error', message: expect.stringContaining('--host 0.0.0.0 lets other machines reach the chat; pass --token-file <path> (or set CHATRAIL_TOKEN)') })
    expect(parseServeArgs(['bot.ts', '--host', '0.0.0.0', '--token', 's'], {})).toMatchObject({ kind: 'run', options: { host: '0.0.0.0', token: 's' } })
    expect(parseServeArgs(['bot.ts', '--host', '0.0.0.0'], { CHATRAIL_TOKEN: 's' })).toMatchObject({ kind: 'run' })
    expect([isLoopbackHost('127.0.0.1'), isLoopbackHost('127.1.2.3'), isLoopbackHost('::1'), isLoopbackHost('localhost')]).toEqual([true, true, true, true])
    expect([isLoopbackHost('0.0.0.0'), isLoopbackHost('192.168.1.2'), isLoopbackHost('::')]).toEqual([false, false, false])
  })

  it('usage errors name the problem and point at --help', () => {
    const message = (args: string[]): string => {
      const parsed = parseServeArgs(args, {})
      return parsed.kind === 'error' ? parsed.message : `not an error: ${parsed.kind}`
    }
    expect(message([])).toContain('chatrail serve: name the definition module')
    expect(message(['a.ts', 'b.ts'])).toContain('one definition module only, got a.ts, b.ts')
    expect(message(['a.ts', '--port', '70000'])).toContain('--port needs a whole number from 0 to 65535')
    expect(message(['a.ts', '--port', '3e3'])).toContain('--port needs a whole number')
    expect(message(['a.ts', '--agent', 'claude'])).toContain('--agent claude is not an agent (did you mean claude-code?)')
    expect(message(['a.ts', '--stor', 'memory'])).toContain('unknown option "--stor" (did you mean "--store"?)')
    expect(message(['a.ts', '--store', 'nope'])).toContain('Run "chatrail serve --help" for usage.')
    expect(parseServeArgs(['--help', '--bogus'], {})).toEqual({ kind: 'help' })
  })
})
