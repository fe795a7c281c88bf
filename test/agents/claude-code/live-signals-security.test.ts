import { execFileSync } from 'node:child_process'
import { chmodSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setupLiveSignals } from '../../../src/agents/claude-code/live-signals.js'
import { defaultRuntimeDir } from '../../../src/agents/claude-code/private-dir.js'
import { ChatrailError } from '../../../src/contract/errors.js'
import { otherUser, runAs } from '../../support/other-user.js'
import { askInput, tempDir } from './transcript-builder.js'
import type { TempDir } from './transcript-builder.js'

/**
 * Issue 15 item 1: the live-signal runtime dir holds code the CLI runs as this user (the settings
 * file) and dialog text (the spool), so another local user must not be able to plant, swap or read
 * anything there. The attacker is a real second user (test/support/other-user.ts).
 */

let tmp: TempDir
beforeEach(() => {
  tmp = tempDir('chatrail-ls-sec-')
})
afterEach(() => tmp.cleanup())

const mode = (path: string): number => lstatSync(path).mode & 0o777
const other = otherUser()
const victimText = 'the victim file, untouched\n'

/** A shared sticky folder (like /var/tmp) both users can create entries in. */
function sharedFolder(): string {
  chmodSync(tmp.dir, 0o711)
  const shared = join(tmp.dir, 'shared')
  mkdirSync(shared)
  chmodSync(shared, 0o1777)
  return shared
}

function hookCommand(settingsPath: string, event: string): string {
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }
  const command = settings.hooks[event]?.[0]?.hooks[0]?.command
  if (command === undefined) throw new Error(`no ${event} hook`)
  return command
}

function expectUnsafe(run: () => unknown, path: string, reason: RegExp): void {
  let caught: unknown
  try {
    run()
  } catch (error) {
    caught = error
  }
  expect(ChatrailError.isInstance(caught)).toBe(true)
  const error = caught as ChatrailError
  expect(error.code).toBe('UNSAFE_RUNTIME_DIR')
  expect(error.message).toContain(path)
  expect(error.message).toMatch(reason)
  expect(error.hint).toMatch(/0700|you own/)
}

describe('setupLiveSignals against another local user', () => {
  it.skipIf(!other.ok)('refuses a runtime dir another user pre-created (mode 777) and never writes through their symlink', () => {
    if (!other.ok) return
    const runtimeDir = join(sharedFolder(), 'claude-runtime')
    const victim = tmp.write('victim.txt', victimText)
    expect(runAs(other.user, 'mkdir', ['-m', '777', runtimeDir]).status).toBe(0)
    expect(runAs(other.user, 'ln', ['-s', victim, join(runtimeDir, 'settings.r1.json')]).status).toBe(0)
    expectUnsafe(() => setupLiveSignals({ runId: 'r1', runtimeDir }), runtimeDir, new RegExp(`owned by uid ${other.user.uid}`))
    expect(readFileSync(victim, 'utf8')).toBe(victimText)
  })

  it.skipIf(!other.ok)('refuses a dir of another user even when it is not writable by anyone else (they could swap the settings file)', () => {
    if (!other.ok) return
    const runtimeDir = join(sharedFolder(), 'theirs')
    expect(runAs(other.user, 'mkdir', ['-m', '755', runtimeDir]).status).toBe(0)
    expectUnsafe(() => setupLiveSignals({ runId: 'r1', runtimeDir }), runtimeDir, /owned by uid/)
  })

  it.skipIf(!other.ok)('files are 0600 and folders 0700: the other user can read neither the settings nor the dialog spool', () => {
    if (!other.ok) return
    const runtimeDir = join(sharedFolder(), 'mine')
    const setup = setupLiveSignals({ runId: 'r1', runtimeDir })
    // The hook runs under a permissive umask: its own `umask 077` must still make the spool private.
    execFileSync('/bin/sh', ['-c', `umask 000; ${hookCommand(setup.settingsPath, 'PreToolUse')}`], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: askInput, tool_use_id: 'toolu_1' }) })
    execFileSync('/bin/sh', ['-c', `umask 000; ${hookCommand(setup.settingsPath, 'Stop')}`], { input: JSON.stringify({ hook_event_name: 'Stop' }) })
    expect({ dir: mode(runtimeDir), dialogs: mode(join(runtimeDir, 'dialogs')), state: mode(join(runtimeDir, 'state')) }).toEqual({ dir: 0o700, dialogs: 0o700, state: 0o700 })
    expect({ settings: mode(setup.settingsPath), spool: mode(setup.spoolPath), marker: mode(setup.markerPath) }).toEqual({ settings: 0o600, spool: 0o600, marker: 0o600 })
    for (const path of [setup.settingsPath, setup.spoolPath]) expect(runAs(other.user, 'cat', [path]).status).not.toBe(0)
    expect(runAs(other.user, 'touch', [join(runtimeDir, 'planted')]).status).not.toBe(0)
  })
})

describe('setupLiveSignals refuses unsafe runtime dirs (any user)', () => {
  it('a world-writable dir of its own, a symlink, a file: each named with the fix', () => {
    const open = join(tmp.dir, 'open')
    mkdirSync(open)
    chmodSync(open, 0o777)
    expectUnsafe(() => setupLiveSignals({ runId: 'r1', runtimeDir: open }), open, /writable by every user \(mode 777\)/)
    const groupWritable = join(tmp.dir, 'group')
    mkdirSync(groupWritable)
    chmodSync(groupWritable, 0o770)
    expectUnsafe(() => setupLiveSignals({ runId: 'r1', runtimeDir: groupWritable }), groupWritable, /writable by its group/)
    const real = join(tmp.dir, 'real')
    mkdirSync(real, { mode: 0o700 })
    const link = join(tmp.dir, 'link')
    symlinkSync(real, link)
    expectUnsafe(() => setupLiveSignals({ runId: 'r1', runtimeDir: link }), link, /symbolic link/)
    const file = tmp.write('file', '')
    expectUnsafe(() => setupLiveSignals({ runId: 'r1', runtimeDir: file }), file, /not a directory|cannot be created/)
  })

  it('a dir inside a folder others may rename entries in (writable, not sticky) is refused', () => {
    const loose = join(tmp.dir, 'loose')
    mkdirSync(loose)
    chmodSync(loose, 0o777)
    const runtimeDir = join(loose, 'rt')
    expectUnsafe(() => setupLiveSignals({ runId: 'r1', runtimeDir }), runtimeDir, /other users can rename entries/)
  })

  it('a planted symlink at the old predictable hook temp path is not followed', () => {
    const runtimeDir = join(tmp.dir, 'rt')
    const setup = setupLiveSignals({ runId: 'r1', runtimeDir })
    const victim = tmp.write('victim.txt', victimText)
    for (const tag of ['pre', 'pre.tmp']) symlinkSync(victim, `${setup.spoolPath}.${tag}`)
    symlinkSync(victim, `${setup.spoolPath}.pre.tmp.XXXXXX`)
    execFileSync('/bin/sh', ['-c', hookCommand(setup.settingsPath, 'PreToolUse')], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: askInput, tool_use_id: 'toolu_1' }) })
    expect(readFileSync(victim, 'utf8')).toBe(victimText)
    expect(JSON.parse(readFileSync(setup.spoolPath, 'utf8'))).toMatchObject({ tool_use_id: 'toolu_1' })
  })

  it('a settings path planted as a symlink in its own dir is replaced, not written through', () => {
    const runtimeDir = join(tmp.dir, 'rt')
    mkdirSync(runtimeDir, { mode: 0o700 })
    const victim = tmp.write('victim.txt', victimText)
    symlinkSync(victim, join(runtimeDir, 'settings.r1.json'))
    const setup = setupLiveSignals({ runId: 'r1', runtimeDir })
    expect(readFileSync(victim, 'utf8')).toBe(victimText)
    expect(lstatSync(setup.settingsPath).isFile()).toBe(true)
  })
})

describe('the default runtime dir is private to the user', () => {
  it('is $XDG_RUNTIME_DIR/chatrail when that is private, else a per-user dir under the OS temp dir', () => {
    const xdg = join(tmp.dir, 'xdg')
    mkdirSync(xdg, { mode: 0o700 })
    expect(defaultRuntimeDir({ XDG_RUNTIME_DIR: xdg })).toBe(join(xdg, 'chatrail'))
    chmodSync(xdg, 0o777)
    expect(defaultRuntimeDir({ XDG_RUNTIME_DIR: xdg })).toBe(join(tmpdir(), `chatrail-${process.getuid?.() ?? ''}`))
    expect(defaultRuntimeDir({})).toBe(join(tmpdir(), `chatrail-${process.getuid?.() ?? ''}`))
  })

  it('setupLiveSignals without a runtimeDir creates the default 0700 and reports it', () => {
    const xdg = realpathSync(tmp.dir)
    chmodSync(xdg, 0o700)
    const saved = process.env.XDG_RUNTIME_DIR
    process.env.XDG_RUNTIME_DIR = xdg
    try {
      const setup = setupLiveSignals({ runId: 'r1' })
      expect(setup.runtimeDir).toBe(join(xdg, 'chatrail'))
      expect(statSync(setup.runtimeDir).mode & 0o777).toBe(0o700)
      expect(setup.settingsPath.startsWith(join(xdg, 'chatrail'))).toBe(true)
    } finally {
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR
      else process.env.XDG_RUNTIME_DIR = saved
    }
  })
})
