import { demoAgents } from './resolve-demo-agent.js'
import type { DemoAgent } from './resolve-demo-agent.js'

/** `chatrail demo` arguments: `--agent`, `--probe-timeout`, `--help`. Parsing is pure. */

export type DemoArgs =
  | { kind: 'help' }
  | { kind: 'run'; agent: DemoAgent | 'auto'; probeTimeoutMs: number }
  | { kind: 'error'; message: string }

export const defaultProbeTimeoutMs = 8000

export const demoHelp = `usage: chatrail demo [--agent claude-code|codex|offline] [--probe-timeout MS]

The support-bot workflow in your terminal. Known input is answered by the workflow's routes
(deterministic: no model call); anything else falls through to a coding agent.

Which agent answers unmatched input:
  default        Claude Code if \`claude\` is on PATH and answers a probe, else Codex if \`codex\`
                 answers one, else the built-in offline adapter. A probe sends one tiny prompt
                 ("Reply with the single word: ready") and waits at most --probe-timeout
                 (default ${defaultProbeTimeoutMs} ms); both probes run at once. Installed is not enough: a
                 signed-out or offline CLI does not count. The choice is printed before the demo.
  --agent NAME   Use NAME without probing: claude-code, codex, or offline. The offline adapter
                 makes no network call; it says that no agent is connected and lists what the
                 workflow understands.
  CHATRAIL_DEMO_AGENT=NAME   The same as --agent (the flag wins).

Keys:
  Enter send · Esc stop · ↑ edit your last message · Ctrl+R retry · Ctrl+G regenerate
  Alt+1…9 send one of the current state's events · Tab reopen a closed agent dialog
  Ctrl+C (or Ctrl+D on an empty line) quit
  Lines starting with / are the workflow's own commands (try /help), never lifecycle actions.
`

/** Levenshtein distance, for "did you mean" on a mistyped agent name or flag. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0
    row[0] = i
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length] ?? 0
}

/** The nearest candidate (or the one `value` starts), as a " (did you mean …?)" suffix. */
function suggest(value: string, candidates: readonly string[]): string {
  const prefixed = value.length >= 3 ? candidates.find((candidate) => candidate.startsWith(value)) : undefined
  const best = prefixed ?? [...candidates].sort((x, y) => distance(value, x) - distance(value, y))[0]
  return best !== undefined && (prefixed !== undefined || distance(value, best) <= Math.max(1, Math.floor(value.length / 3))) ? ` (did you mean ${best}?)` : ''
}

function isDemoAgent(value: string | undefined): value is DemoAgent {
  return value !== undefined && (demoAgents as readonly string[]).includes(value)
}

/** `source` names where the value came from: `--agent foo` or `CHATRAIL_DEMO_AGENT=foo`. */
function badAgent(value: string | undefined, source: (value: string) => string): string {
  if (value === undefined || value === '') return `${source('')} needs a value: ${demoAgents.join(', ')}`
  return `${source(value)} is not an agent${suggest(value, demoAgents)}; use one of ${demoAgents.join(', ')}`
}

/** Parses `argv` (after `demo`); `env.CHATRAIL_DEMO_AGENT` is the default for `--agent`. */
export function parseDemoArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DemoArgs {
  let agent: DemoAgent | 'auto' = 'auto'
  let probeTimeoutMs = defaultProbeTimeoutMs
  const fromEnv = env.CHATRAIL_DEMO_AGENT
  if (fromEnv !== undefined && fromEnv !== '' && fromEnv !== 'auto') {
    if (!isDemoAgent(fromEnv)) return { kind: 'error', message: badAgent(fromEnv, (v) => `CHATRAIL_DEMO_AGENT=${v}`) }
    agent = fromEnv
  }
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? ''
    if (arg === '--help' || arg === '-h') return { kind: 'help' }
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = (): string | undefined => inline ?? argv[++index]
    if (flag === '--agent') {
      const name = value()
      if (!isDemoAgent(name)) return { kind: 'error', message: badAgent(name, (v) => `--agent ${v}`.trimEnd()) }
      agent = name
    } else if (flag === '--probe-timeout') {
      const raw = value()
      const ms = Number(raw)
      if (!Number.isInteger(ms) || ms <= 0) return { kind: 'error', message: `--probe-timeout needs a positive whole number of milliseconds, got ${raw ?? 'nothing'}` }
      probeTimeoutMs = ms
    } else {
      return { kind: 'error', message: `unknown argument ${arg}${suggest(flag, ['--agent', '--probe-timeout', '--help'])}` }
    }
  }
  return { kind: 'run', agent, probeTimeoutMs }
}
