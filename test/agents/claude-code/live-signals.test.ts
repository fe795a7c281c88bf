import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { liveSignalPaths, setupLiveSignals, shellQuote, signalDigest, sweepLiveSignals } from '../../../src/agents/claude-code/live-signals.js'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import { ChatrailError } from '../../../src/contract/errors.js'
import { askInput, tempDir } from './transcript-builder.js'
import type { TempDir } from './transcript-builder.js'

/** Hooks, spool and markers (run-state-readers §8 items 56–57, 66–68). */

let tmp: TempDir
let runtimeDir: string
beforeEach(() => {
  tmp = tempDir()
  runtimeDir = join(tmp.dir, "run time's dir")
})
afterEach(() => tmp.cleanup())

interface HookSettings {
  env?: Record<string, string>
  hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string }> }>>
}

function settingsOf(path: string): HookSettings {
  return JSON.parse(readFileSync(path, 'utf8')) as HookSettings
}

function commandOf(settings: HookSettings, event: string): string {
  const command = settings.hooks[event]?.[0]?.hooks[0]?.command
  if (command === undefined) throw new Error(`no ${event} hook`)
  return command
}

/**
 * Runs a hook command the way the CLI does: `/bin/sh -c` with the payload on stdin. A hook that never
 * reads its stdin (PostToolUse's `rm`) can exit before the payload is written: that EPIPE is the
 * writer's to ignore (a loaded run of `npm run test:unit` hit it), the hook's exit status is what counts.
 */
function runHook(command: string, payload: unknown): void {
  const result = spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(payload) })
  if (result.error && (result.error as NodeJS.ErrnoException).code !== 'EPIPE') throw result.error
  if (result.status !== 0) throw new Error(`hook exited ${String(result.status ?? result.signal)}: ${result.stderr.toString()}`)
}

describe('setupLiveSignals', () => {
  it('56: writes settings.<runId>.json and returns ["--settings", path]; dialog matchers on Pre/Post, none on the markers', () => {
    const setup = setupLiveSignals({ runId: 'r1', runtimeDir })
    expect(setup.args).toEqual(['--settings', join(runtimeDir, 'settings.r1.json')])
    const settings = settingsOf(setup.settingsPath)
    expect(settings.env).toBeUndefined()
    expect(settings.hooks.PreToolUse?.[0]?.matcher).toBe('AskUserQuestion|ExitPlanMode')
    expect(settings.hooks.PostToolUse?.[0]?.matcher).toBe('AskUserQuestion|ExitPlanMode')
    for (const event of ['Notification', 'Stop', 'StopFailure']) expect(settings.hooks[event]?.[0]?.matcher).toBeUndefined()
    const pre = commandOf(settings, 'PreToolUse')
    expect(pre).toMatch(/^umask 077; mkdir -p .* && t=\$\(mktemp '.*\.pre\.tmp\.XXXXXX'\) && \{ cat > "\$t" && mv -f "\$t" /)
    expect(pre).not.toMatch(/exit 2/)
    expect(commandOf(settings, 'PostToolUse')).toBe(`rm -f ${shellQuote(setup.spoolPath)} || true`)
  })

  it('57: a dialog timeout sets CLAUDE_AFK_TIMEOUT_MS, clamped to 2^31−1; the hooks block is identical either way', () => {
    const plain = settingsOf(setupLiveSignals({ runId: 'a', runtimeDir }).settingsPath)
    const ninety = settingsOf(setupLiveSignals({ runId: 'a', runtimeDir, dialogTimeoutMs: 90_000 }).settingsPath)
    expect(ninety.env).toEqual({ CLAUDE_AFK_TIMEOUT_MS: '90000' })
    expect(settingsOf(setupLiveSignals({ runId: 'a', runtimeDir, dialogTimeoutMs: 40 * 24 * 3600 * 1000 }).settingsPath).env).toEqual({ CLAUDE_AFK_TIMEOUT_MS: '2147483647' })
    expect(JSON.stringify(ninety.hooks)).toBe(JSON.stringify(plain.hooks))
  })

  it('refuses a run id that cannot name a file, and an empty runtime dir', () => {
    for (const runId of ['', '../x', 'a b', '-flag']) expect(() => setupLiveSignals({ runId, runtimeDir })).toThrow(ChatrailError)
    expect(() => setupLiveSignals({ runId: 'ok', runtimeDir: '' })).toThrow(/runtimeDir/)
  })

  it('67: real /bin/sh: Pre writes a readable spool and no .tmp; Post deletes it; Notification writes a marker that reads as needs_input', async () => {
    const setup = setupLiveSignals({ runId: 'r1', runtimeDir })
    const settings = settingsOf(setup.settingsPath)
    runHook(commandOf(settings, 'PreToolUse'), { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: askInput, tool_use_id: 'toolu_1' })
    expect(existsSync(setup.spoolPath)).toBe(true)
    expect(readdirSync(join(runtimeDir, 'dialogs'))).toEqual(['r1.json'])
    expect((await readChat({ runId: 'r1', runtimeDir, transcriptPath: '' })).pendingDialog?.toolId).toBe('toolu_1')
    runHook(commandOf(settings, 'PostToolUse'), {})
    expect(existsSync(setup.spoolPath)).toBe(false)
    runHook(commandOf(settings, 'Notification'), { session_id: 's', hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Claude needs your permission to use Bash' })
    expect(await readChat({ runId: 'r1', runtimeDir, transcriptPath: '' })).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval' })
    runHook(commandOf(settings, 'Stop'), { session_id: 's', hook_event_name: 'Stop' })
    expect(JSON.parse(readFileSync(setup.markerPath, 'utf8'))).toMatchObject({ hook_event_name: 'Stop' })
    expect(readdirSync(join(runtimeDir, 'state'))).toEqual(['r1.json'])
  })

  it('the quoting keeps shell syntax in a runtime dir inert', () => {
    const hostile = join(tmp.dir, "x'; touch pwned; echo '")
    const setup = setupLiveSignals({ runId: 'r1', runtimeDir: hostile })
    runHook(commandOf(settingsOf(setup.settingsPath), 'Stop'), { hook_event_name: 'Stop' })
    expect(existsSync(setup.markerPath)).toBe(true)
    expect(existsSync(join(process.cwd(), 'pwned'))).toBe(false)
  })
})

describe('signalDigest and sweepLiveSignals', () => {
  it('66: "" when nothing exists, non-empty with a spool, changes when a marker appears', () => {
    const paths = liveSignalPaths({ runId: 'r1', runtimeDir })
    expect(signalDigest({ runId: 'r1', runtimeDir })).toBe('')
    mkdirSync(join(runtimeDir, 'dialogs'), { recursive: true })
    writeFileSync(paths.spoolPath, '{}')
    const withSpool = signalDigest({ runId: 'r1', runtimeDir })
    expect(withSpool).not.toBe('')
    mkdirSync(join(runtimeDir, 'state'), { recursive: true })
    writeFileSync(paths.markerPath, '{}')
    expect(signalDigest({ runId: 'r1', runtimeDir })).not.toBe(withSpool)
    expect(signalDigest({ runId: 'r1', runtimeDir: '' })).toBe('')
  })

  it('68: removes the triple of runs outside the keep-set and reaps .tmp orphans older than 2 minutes only', () => {
    for (const runId of ['keep', 'drop']) {
      setupLiveSignals({ runId, runtimeDir })
      const paths = liveSignalPaths({ runId, runtimeDir })
      mkdirSync(join(runtimeDir, 'dialogs'), { recursive: true })
      mkdirSync(join(runtimeDir, 'state'), { recursive: true })
      writeFileSync(paths.spoolPath, '{}')
      writeFileSync(paths.markerPath, '{}')
    }
    const now = Date.now()
    const old = join(runtimeDir, 'dialogs', 'keep.json.pre.tmp')
    const fresh = join(runtimeDir, 'state', 'keep.json.stop.tmp')
    writeFileSync(old, 'x')
    writeFileSync(fresh, 'x')
    utimesSync(old, (now - 180_000) / 1000, (now - 180_000) / 1000)
    utimesSync(fresh, now / 1000, now / 1000) // the kernel's clock is not the test's under a shifted clock
    const removed = sweepLiveSignals({ runtimeDir, keepRunIds: ['keep'], now })
    expect(removed.sort()).toEqual([join(runtimeDir, 'dialogs', 'drop.json'), old, join(runtimeDir, 'settings.drop.json'), join(runtimeDir, 'state', 'drop.json')].sort())
    expect(existsSync(fresh)).toBe(true)
    expect(existsSync(liveSignalPaths({ runId: 'keep', runtimeDir }).spoolPath)).toBe(true)
  })
})
