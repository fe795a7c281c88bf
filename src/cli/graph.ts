import { toDot, toMermaid } from '../conversation/mermaid.js'
import { parseCommandArgs, usageErrorText } from './args.js'
import { loadDefinitionArgument } from './definition-module.js'
import type { CommandIo } from './test-command.js'

/**
 * `chatrail graph <module> [--format mermaid|dot]`: prints a definition's state diagram (issue 19
 * item 5) — states, transitions labelled with their events and the routes that fire them, final
 * states marked, conversation-level transitions drawn once. Exit 0 printed, 1 the module failed to
 * load, 2 a usage error.
 */

export const graphUsage = `usage: chatrail graph <definition module> [options]

Prints the definition's state diagram: Mermaid (paste into Markdown on GitHub) or Graphviz DOT.

options:
  --format <mermaid|dot>  default mermaid
  -h, --help              show this help

examples:
  chatrail graph examples/support-bot/definition.ts > support-bot.mmd
  chatrail graph ./bot.ts --format dot | dot -Tsvg > bot.svg`

const formats = { mermaid: toMermaid, dot: toDot } as const

const defaultIo: CommandIo = {
  stdout: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
}

export function run(args: readonly string[]): Promise<number> {
  return runGraphCommand(args, { ...defaultIo, cwd: process.cwd() })
}

export async function runGraphCommand(args: readonly string[], io: CommandIo = defaultIo): Promise<number> {
  const parsed = parseCommandArgs({ command: 'graph', positionals: true, options: { format: { type: 'string' } } }, args)
  if (parsed.kind === 'help') {
    io.stdout(graphUsage)
    return 0
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(parsed.message)
    return 2
  }
  const [module, extra] = parsed.positionals
  const format = parsed.values.format ?? 'mermaid'
  if (module === undefined || extra !== undefined) {
    io.stderr(usageErrorText('graph', module === undefined ? 'give the definition module' : `unexpected argument ${JSON.stringify(extra)}`))
    return 2
  }
  if (!Object.hasOwn(formats, format)) {
    io.stderr(usageErrorText('graph', `--format takes mermaid or dot, got ${JSON.stringify(format)}`))
    return 2
  }
  const definition = await loadDefinitionArgument('graph', module, io.cwd)
  if ('error' in definition) {
    io.stderr(definition.error)
    return 1
  }
  io.stdout(formats[format as keyof typeof formats](definition))
  return 0
}
