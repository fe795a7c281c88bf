import type { MonitorOptions } from '../agents/monitor/monitor-options.js'
import { defaultOpencodeDataDir } from '../agents/opencode/disk-fallback.js'
import { DEFAULT_OPENCODE_URL } from '../agents/opencode/http-client.js'

/**
 * OpenCode in `chatrail sessions` (issue 18): its run state lives in its server, asked at
 * `--opencode-url` (default `http://127.0.0.1:4096`, OpenCode's own default port, where nothing
 * listening just means OpenCode is not running: no warning); meanwhile its stored sessions are the
 * inventory, every one `unknown`. `--no-opencode-url` leaves OpenCode out. The data folder is
 * `$XDG_DATA_HOME/opencode` (not when `--home` names another home), else `<home>/.local/share/opencode`.
 */
export function opencodeMonitorOptions(
  values: { 'opencode-url'?: string | undefined; 'no-opencode-url'?: boolean | undefined; home?: string | undefined },
  home: string,
  env: NodeJS.ProcessEnv,
): Pick<MonitorOptions, 'opencodeUrl' | 'opencodeDataDir' | 'opencodeOptional'> {
  if (values['no-opencode-url'] === true) return {}
  const opencodeDataDir = defaultOpencodeDataDir(values.home === undefined ? env : {}, home)
  return { opencodeDataDir, opencodeUrl: values['opencode-url'] ?? DEFAULT_OPENCODE_URL, opencodeOptional: values['opencode-url'] === undefined }
}
