import { closestName } from '../conversation/did-you-mean.js'
import { suggestOption, usageErrorText } from './args.js'
import { applyColorPolicyToInk } from './color.js'

/**
 * The `chatrail` command. Each command is one line in `commands`: a name, a one-line summary, and
 * a lazy `load` (so `chatrail demo` never loads what `chatrail test` needs). A command module
 * exports `run(args)` resolving to the exit code; it parses its flags with `parseCommandArgs`
 * (src/cli/args.ts), so every command answers a mistake the same way. `--help` prints usage
 * (exit 0), as does `help <command>`; `--version` the package's version; an unknown command (with a "did you mean" for a
 * likely typo) is one error line and a pointer to `--help` on stderr, exit 2. No command at all
 * prints the usage to stderr (exit 2).
 */

export interface CommandModule {
  run: (args: readonly string[]) => Promise<number>
}

export interface CommandEntry {
  name: string
  summary: string
  load: () => Promise<CommandModule>
}

export const commands: readonly CommandEntry[] = [
  { name: 'demo', summary: 'a terminal conversation: the support-bot workflow in Ink, a coding agent as fallback', load: () => import('./demo.js') },
  { name: 'inspect', summary: 'show an agent transcript\'s run state, pending dialog and messages (--json)', load: () => import('./inspect.js') },
  { name: 'test', summary: 'run *.conv.yaml conversation files (--json, --coverage, --replay-check)', load: () => import('./test-command.js') },
  { name: 'explain', summary: 'which route answers a message in a state, and why the others do not (--state, --json)', load: () => import('./explain.js') },
  { name: 'export', summary: 'turn a stored conversation into a .conv.yaml regression test (--store, --definition, --redact)', load: () => import('./export.js') },
  { name: 'graph', summary: 'print a definition\'s state diagram (--format mermaid|dot)', load: () => import('./graph.js') },
  { name: 'sessions', summary: 'every local Claude Code and Codex session, the ones that need you first (--watch, --json)', load: () => import('./sessions.js') },
  { name: 'serve', summary: 'serve a chat definition over HTTP with a built-in chat page (--store, --port, --token)', load: () => import('./serve.js') },
]

export function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length))
  const rows = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`)
  return `usage: chatrail <command> [args…]\n\ncommands:\n${rows.join('\n')}\n\noptions:\n  -h, --help     show this help\n  -v, --version  print chatrail's version\n\nexamples:\n  chatrail sessions --watch\n  chatrail inspect ~/.codex/sessions/2026/11/30/rollout-….jsonl\n\nRun \`chatrail help <command>\` (or \`chatrail <command> --help\`) for a command's options and examples.`
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv
  applyColorPolicyToInk(process.env)
  if (name === 'help' && args[0] !== undefined) {
    // `chatrail help serve` is `chatrail serve --help`
    const topic = args[0]
    const command = commands.find((candidate) => candidate.name === topic)
    if (!command) {
      process.stderr.write(`${usageErrorText('', `no help for ${JSON.stringify(topic)}: not a command${suggestion(closestName(topic, commands.map((candidate) => candidate.name)))}`)}\n`)
      return 2
    }
    return (await command.load()).run(['--help'])
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`)
    return 0
  }
  if (name === '--version' || name === '-v') {
    const { packageVersion } = await import('./version.js')
    const version = packageVersion()
    if (version === undefined) {
      process.stderr.write('chatrail: cannot find chatrail\'s package.json above the running script to read the version\n')
      return 1
    }
    process.stdout.write(`${version}\n`)
    return 0
  }
  if (name === undefined) {
    process.stderr.write(`chatrail: no command given\n\n${usage()}\n`)
    return 2
  }
  const command = commands.find((candidate) => candidate.name === name)
  if (!command) {
    const problem = name.startsWith('-')
      ? `unknown option ${JSON.stringify(name)}${suggestOption(name, { help: { type: 'boolean' }, version: { type: 'boolean' } })}`
      : `unknown command ${JSON.stringify(name)}${suggestion(closestName(name, commands.map((candidate) => candidate.name)))}`
    process.stderr.write(`${usageErrorText('', problem)}\n`)
    return 2
  }
  const module = await command.load()
  return module.run(args)
}

function suggestion(guess: string | undefined): string {
  return guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`chatrail: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 1
  },
)
