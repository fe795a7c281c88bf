import { closestName } from '../../conversation/did-you-mean.js'
import { suggestOption } from '../args.js'
import { demoAgents } from './resolve-demo-agent.js'
import type { DemoAgent } from './resolve-demo-agent.js'

/** `chatrail demo` arguments: `--agent`, `--probe-timeout`, `--help`. Parsing is pure. */

export type DemoArgs =
  | { kind: 'help' }
  | { kind: 'run'; agent: DemoAgent | 'auto'; probeTimeoutMs: number }
  | { kind: 'error'; message: string }

export const defaultProbeTimeoutMs = 8000

const demoOptions = { agent: { type: 'string' }, 'probe-timeout': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const

export const demoHelp = `usage: chatrail demo [--agent claude-code|codex|opencode|offline] [--probe-timeout MS]

The support-bot workflow in your terminal. Known input is answered by the workflow's routes
(deterministic: no model call); anything else falls through to a coding agent.

Which agent answers unmatched input:
  default        Claude Code if \`claude\` is on PATH and answers a probe, else Codex if \`codex\`
                 answers one, else OpenCode if a configured \`opencode\` does, else the built-in
                 offline adapter. A probe sends one tiny prompt ("Reply with the single word:
                 ready") and waits at most --probe-timeout (default ${defaultProbeTimeoutMs} ms); the probes
                 run at once. Installed is not enough: a signed-out or offline CLI does not count.
                 The choice is printed before the demo.
  --agent NAME   Use NAME without probing: claude-code, codex, opencode, or offline. The offline
                 adapter makes no network call; it says that no agent is connected and lists what
                 the workflow understands.
  CHATRAIL_DEMO_AGENT=NAME   The same as --agent (the flag wins).

Keys:
  Enter send · Shift+Enter, Ctrl+J or \\ then Enter a new line · Esc stop
  ↑/↓ earlier prompts · Ctrl+R search them · Esc Esc edit your last message
  Ctrl+T retry · Ctrl+G regenerate
  Alt+1…9 send one of the current state's events · Tab reopen a closed agent dialog
  ←/→ Home/End Ctrl+A/E move · Ctrl+W delete a word · Ctrl+U/K delete before/after the cursor
  PgUp/PgDn scroll a long agent plan · Ctrl+C (or Ctrl+D on an empty line) quit
  Lines starting with / are the workflow's own commands (try /help), never lifecycle actions.

Examples:
  chatrail demo                    probe for an agent, then start
  chatrail demo --agent offline    no agent, no network: the routes only
  CHATRAIL_DEMO_AGENT=codex npm start
`

/** The nearest candidate (or the one `value` abbreviates), as a " (did you mean …?)" suffix. */
function suggest(value: string, candidates: readonly string[]): string {
  const best = closestName(value, candidates)
  return best === undefined ? '' : ` (did you mean ${best}?)`
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
      // The same words as every other command's parser (src/cli/args.ts).
      return { kind: 'error', message: flag.startsWith('-') ? `unknown option ${JSON.stringify(flag)}${suggestOption(flag, demoOptions)}` : `unexpected argument ${JSON.stringify(arg)} (this command takes options only)` }
    }
  }
  return { kind: 'run', agent, probeTimeoutMs }
}
