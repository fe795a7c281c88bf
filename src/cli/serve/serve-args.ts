import { closestName } from '../../conversation/did-you-mean.js'
import { parseCommandArgs, usageErrorText } from '../args.js'
import { demoAgents } from '../demo/resolve-demo-agent.js'
import type { DemoAgent } from '../demo/resolve-demo-agent.js'

/** `chatrail serve` arguments. Parsing is pure: the environment comes in as `env`. */

export type StoreSpec =
  | { kind: 'memory' }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'postgres'; connectionString: string }

export interface ServeOptions {
  module: string
  store: StoreSpec
  port: number
  host: string
  /** Replaces the definition's own agentic fallback; absent: the definition's `chat.adapter`. */
  agent?: DemoAgent
  /** The bearer secret every `/api/chat` request must carry; absent: no authentication (loopback only). */
  token?: string
  /** `--token-file`: the file the secret is read from (token-file.ts) before the server starts. */
  tokenFile?: string
  /** The secret came as `--token` (visible to every local user in the process list): warned about. */
  tokenOnCommandLine?: true
}

export type ServeArgs = { kind: 'help' } | { kind: 'run'; options: ServeOptions } | { kind: 'error'; message: string }

export const defaultStore = 'pglite:./.chatrail'

export const serveHelp = `usage: chatrail serve <definition module> [options]

Serves a chat definition over HTTP with a built-in chat page: the handler at /api/chat (the AI
SDK UI message stream \`useChat\` reads) and the page at /. The devtools (every stored
conversation's turns, routes and decisions, the state diagram, what-if, export as a test) are at
/devtools/, behind the same token. The module's default export, or its export named
\`definition\`, must be a defineChat result (.ts modules load through tsx).

options:
  --store <spec>    where conversations live: memory, pglite:<dir> or postgres://…
                    (default ${defaultStore})
  --port <n>        the port (default 3000; 0 picks a free one)
  --host <host>     the interface to bind (default 127.0.0.1). Any other host needs --token.
  --agent <name>    answer unmatched input with claude-code, codex, opencode or offline instead
                    of the definition's own adapter
  --token-file <path>
                    require \`Authorization: Bearer <secret>\` on /api/chat, the secret read from
                    <path> (mode 600: a file others can read is refused). Or set CHATRAIL_TOKEN.
                    The page reads it once from its address: http://host:port/#token=<secret>
  --token <secret>  the same with the secret on the command line, where every local user can read
                    it (ps, /proc/<pid>/cmdline): prefer --token-file or CHATRAIL_TOKEN
  -h, --help        show this help

Once listening it prints \`listening on http://<host>:<port>\`. Ctrl-C stops it (the store is closed).`

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

/** True for a host only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.has(host) || /^127(?:\.\d{1,3}){3}$/.test(host)
}

/** `memory`, `pglite:<dir>` or a `postgres://` / `postgresql://` URL. */
export function parseStoreSpec(spec: string): StoreSpec | string {
  if (spec === 'memory') return { kind: 'memory' }
  if (spec.startsWith('pglite:')) {
    const dataDir = spec.slice('pglite:'.length)
    return dataDir === '' ? '--store pglite: needs a directory, e.g. pglite:./.chatrail' : { kind: 'pglite', dataDir }
  }
  if (/^postgres(?:ql)?:\/\//.test(spec)) return { kind: 'postgres', connectionString: spec }
  return `--store ${spec} is not a store; use memory, pglite:<dir> or postgres://user:password@host/db`
}

function suggest(value: string, candidates: readonly string[]): string {
  const best = closestName(value, candidates)
  return best === undefined ? '' : ` (did you mean ${best}?)`
}

const serveFlags = {
  store: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  agent: { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
} as const

/** Parses `argv` (after `serve`) with the CLI's shared parser; `env.CHATRAIL_TOKEN` is the default for `--token`. */
export function parseServeArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ServeArgs {
  const parsed = parseCommandArgs({ command: 'serve', options: serveFlags, positionals: true }, argv)
  if (parsed.kind === 'help') return { kind: 'help' }
  if (parsed.kind === 'usage-error') return { kind: 'error', message: parsed.message }
  const problem = (text: string): ServeArgs => ({ kind: 'error', message: usageErrorText('serve', text) })
  const { values, positionals } = parsed
  const [module, ...extra] = positionals
  if (module === undefined) return problem('name the definition module, e.g. chatrail serve examples/support-bot/definition.ts')
  if (extra.length > 0) return problem(`one definition module only, got ${[module, ...extra].join(', ')}`)
  for (const flag of ['store', 'port', 'host', 'agent', 'token', 'token-file'] as const) {
    if (values[flag] === '') return problem(`--${flag} needs a value`)
  }
  const store = parseStoreSpec(values.store ?? defaultStore)
  if (typeof store === 'string') return problem(store)
  const port = values.port === undefined ? 3000 : Number(values.port)
  if (!/^\d+$/.test(values.port ?? '0') || !Number.isInteger(port) || port < 0 || port > 65535) return problem(`--port needs a whole number from 0 to 65535 (0 picks a free port), got ${values.port ?? ''}`)
  const agent = values.agent
  if (agent !== undefined && !(demoAgents as readonly string[]).includes(agent)) return problem(`--agent ${agent} is not an agent${suggest(agent, demoAgents)}; use one of ${demoAgents.join(', ')}`)
  const host = values.host ?? '127.0.0.1'
  const tokenFile = values['token-file']
  if (tokenFile !== undefined && values.token !== undefined) return problem('--token and --token-file both name the secret; pass one (--token-file keeps it out of the process list)')
  // a flag wins over the environment
  const token = values.token ?? (tokenFile !== undefined || env.CHATRAIL_TOKEN === '' ? undefined : env.CHATRAIL_TOKEN)
  if (!isLoopbackHost(host) && token === undefined && tokenFile === undefined) {
    return problem(`--host ${host} lets other machines reach the chat; pass --token-file <path> (or set CHATRAIL_TOKEN) so only holders of the secret can use it`)
  }
  return {
    kind: 'run',
    options: {
      module, store, port, host,
      ...(agent === undefined ? {} : { agent: agent as DemoAgent }),
      ...(token === undefined ? {} : { token }),
      ...(tokenFile === undefined ? {} : { tokenFile }),
      ...(values.token === undefined ? {} : { tokenOnCommandLine: true as const }),
    },
  }
}
