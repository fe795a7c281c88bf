import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { agentBin } from './agent-clis.js'
import { startOpencodeServer } from '../../src/agents/opencode/adapter/opencode-server.js'
import type { OpencodeServerProcess } from '../../src/agents/opencode/adapter/opencode-server.js'

/**
 * Runs the real `opencode serve` (opencode-ai 1.18.33 in test/agents-e2e: see agent-clis.ts) offline against
 * a scripted Anthropic server, in a throwaway HOME: config at `$HOME/.config/opencode/opencode.json`
 * pointing the `anthropic` provider at the scripted server, autoupdate and the models.dev fetch off,
 * a free port on 127.0.0.1. The `permission` section decides which tools ask. The server has its own
 * random password (`server.auth()`): every request must send it.
 */

export const OPENCODE_BIN = agentBin('opencode')

export interface OpencodeHome {
  home: string
  cwd: string
  /** `$HOME/.local/share/opencode` (opencode.db, WAL mode). */
  dataDir: string
  env: Record<string, string>
  cleanup: () => void
}

export interface OpencodeHomeOptions {
  /** The scripted Anthropic server, e.g. `http://127.0.0.1:1234`. */
  modelUrl: string
  /** opencode.json `permission`, e.g. `{ bash: 'ask', question: 'allow' }`. */
  permission?: Record<string, unknown>
  /** Sets OPENCODE_SERVER_PASSWORD in `env` (a server `startOpencodeServer` starts replaces it with a random one of its own). */
  password?: string
  prefix?: string
}

export function makeOpencodeHome(options: OpencodeHomeOptions): OpencodeHome {
  const home = realpathSync(mkdtempSync(join(tmpdir(), options.prefix ?? 'chatrail-oc-')))
  const cwd = join(home, 'proj')
  mkdirSync(cwd)
  mkdirSync(join(home, '.config', 'opencode'), { recursive: true })
  writeFileSync(
    join(home, '.config', 'opencode', 'opencode.json'),
    JSON.stringify({
      model: 'anthropic/claude-sonnet-4-5',
      autoupdate: false,
      share: 'disabled',
      ...(options.permission ? { permission: options.permission } : {}),
      provider: { anthropic: { options: { baseURL: `${options.modelUrl}/v1`, apiKey: 'any' } } },
    }),
  )
  return {
    home,
    cwd,
    dataDir: join(home, '.local', 'share', 'opencode'),
    env: opencodeEnv(home, options.password),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  }
}

export function opencodeEnv(home: string, password?: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    ...(password !== undefined ? { OPENCODE_SERVER_PASSWORD: password } : {}),
  }
}

/** `opencode serve` in `home.cwd` (its credentials: `auth()`); `stop()` ends its whole process tree. */
export function serveOpencode(home: OpencodeHome): Promise<OpencodeServerProcess> {
  return startOpencodeServer({ bin: OPENCODE_BIN, cwd: home.cwd, env: home.env, startTimeoutMs: 60_000, graceMs: 2000 })
}
