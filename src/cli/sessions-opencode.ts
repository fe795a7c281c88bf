import type { MonitorOptions } from '../agents/monitor/monitor-options.js'
import { defaultOpencodeDataDir } from '../agents/opencode/disk-fallback.js'
import { authFromEnv, DEFAULT_OPENCODE_URL } from '../agents/opencode/http-client.js'

/**
 * OpenCode in `chatrail sessions` (issue 18): its run state lives in its server, asked at
 * `--opencode-url` (default `http://127.0.0.1:4096`, OpenCode's own default port, where nothing
 * listening just means OpenCode is not running: no warning); meanwhile its stored sessions are the
 * inventory, every one `unknown`. `--no-opencode-url` leaves OpenCode out. The data folder is
 * `$XDG_DATA_HOME/opencode` (not when `--home` names another home), else `<home>/.local/share/opencode`.
 *
 * Credentials (issue 28): `OPENCODE_SERVER_PASSWORD` / `_USERNAME` of the command's environment go
 * only to a URL the user named with `--opencode-url`. The default port is free whenever OpenCode is
 * not running, and any local user can listen there, so the default probe sends none (a server there
 * that wants a password is a warning saying to name it); a listener another user owns is not asked
 * at all (the client's check, a warning line).
 */
export function opencodeMonitorOptions(
  values: { 'opencode-url'?: string | undefined; 'no-opencode-url'?: boolean | undefined; home?: string | undefined },
  home: string,
  env: NodeJS.ProcessEnv,
): Pick<MonitorOptions, 'opencodeUrl' | 'opencodeDataDir' | 'opencodeOptional' | 'opencodeAuth'> {
  if (values['no-opencode-url'] === true) return {}
  const opencodeDataDir = defaultOpencodeDataDir(values.home === undefined ? env : {}, home)
  const named = values['opencode-url']
  if (named === undefined) return { opencodeDataDir, opencodeUrl: DEFAULT_OPENCODE_URL, opencodeOptional: true, opencodeAuth: null }
  return { opencodeDataDir, opencodeUrl: named, opencodeOptional: false, opencodeAuth: authFromEnv(env) ?? null }
}
