import { closestName } from '../conversation/did-you-mean.js'

/**
 * The `chatrail` command. Each command is one line in `commands`: a name, a one-line summary, and
 * a lazy `load` (so `chatrail demo` never loads what `chatrail test` needs). A command module
 * exports `run(args)` resolving to the exit code. `--help` prints usage (exit 0); no command or an
 * unknown one (with a "did you mean" for a likely typo) prints usage to stderr and exits 2.
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
  { name: 'sessions', summary: 'every local Claude Code and Codex session, the ones that need you first (--watch, --json)', load: () => import('./sessions.js') },
]

export function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length))
  const rows = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`)
  return `usage: chatrail <command> [args…]\n\ncommands:\n${rows.join('\n')}\n\nRun \`chatrail <command> --help\` for a command's options.`
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`)
    return 0
  }
  const command = commands.find((candidate) => candidate.name === name)
  if (!command) {
    const guess = name === undefined ? undefined : closestName(name, commands.map((candidate) => candidate.name))
    const problem = name === undefined ? 'no command given' : `unknown command ${JSON.stringify(name)}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}`
    process.stderr.write(`chatrail: ${problem}\n\n${usage()}\n`)
    return 2
  }
  const module = await command.load()
  return module.run(args)
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
