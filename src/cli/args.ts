import { parseArgs } from 'node:util'
import type { ParseArgsConfig } from 'node:util'
import { closestName } from '../conversation/did-you-mean.js'

/**
 * The one argument parser of the `chatrail` commands, so every command treats its flags the same
 * way: `node:util` `parseArgs` (strict) underneath, `-h`/`--help` added to every command, and a
 * mistake turned into one line that names it, with a "did you mean" for a mistyped flag:
 *
 *   const parsed = parseCommandArgs({ command: 'sessions', options: { json: { type: 'boolean' } } }, args)
 *   if (parsed.kind === 'help') { print(sessionsUsage); return 0 }
 *   if (parsed.kind === 'usage-error') { printError(parsed.message); return 2 }
 *   parsed.values.json // boolean | undefined
 *
 * `usageErrorText(command, problem)` is the matching two lines for the command's own checks (a
 * bad value, a missing file): `chatrail sessions: <problem>` and a pointer to `--help`, never the
 * whole help. Pure: nothing is printed here.
 */

export type CommandOptions = NonNullable<ParseArgsConfig['options']>

export interface CommandArgsSpec<O extends CommandOptions> {
  /** The command as typed after `chatrail` (`sessions`); messages start `chatrail sessions:`. */
  command: string
  /** The command's flags, as `parseArgs` takes them; `help` (`-h`) is added. */
  options: O
  /** Whether the command takes bare arguments (files, ids). Default: no. */
  positionals?: boolean
}

const helpOption = { help: { type: 'boolean', short: 'h' } } as const

type Values<O extends CommandOptions> = ReturnType<typeof parseArgs<{ options: O & typeof helpOption; allowPositionals: true; strict: true }>>['values']

export type CommandArgs<O extends CommandOptions> =
  | { kind: 'run'; values: Values<O>; positionals: string[] }
  | { kind: 'help' }
  /** `message` is the whole text to print on stderr (two lines, see `usageErrorText`), `problem` its first line's gist; exit 2. */
  | { kind: 'usage-error'; message: string; problem: string }

/** Pure. Parses a command's arguments (everything after the command's name). */
export function parseCommandArgs<const O extends CommandOptions>(spec: CommandArgsSpec<O>, args: readonly string[]): CommandArgs<O> {
  const options = { ...spec.options, ...helpOption }
  // `--help` wins over any other mistake on the same line, as in git and npm.
  if (args.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' }
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: spec.positionals === true, strict: true })
    return { kind: 'run', values: parsed.values as Values<O>, positionals: parsed.positionals }
  } catch (error) {
    const problem = describeParseError(error, options)
    return { kind: 'usage-error', message: usageErrorText(spec.command, problem), problem }
  }
}

/** Pure. `chatrail <command>: <problem>` and the pointer to the command's `--help`. */
export function usageErrorText(command: string, problem: string): string {
  const prefix = command === '' ? 'chatrail' : `chatrail ${command}`
  return `${prefix}: ${problem}\nRun "${prefix} --help" for usage.`
}

/** Pure. The flag that `option` most likely meant (`--jsno` → `--json`), as a ` (did you mean …?)` suffix. */
export function suggestOption(option: string, options: CommandOptions): string {
  const names = Object.entries(options).flatMap(([name, config]) => [`--${name}`, ...(config.short === undefined ? [] : [`-${config.short}`])])
  const best = option.startsWith('--') ? closestName(option, names.filter((name) => name.startsWith('--'))) : undefined
  return best === undefined ? '' : ` (did you mean ${JSON.stringify(best)}?)`
}

/** parseArgs' errors reworded as one short line each (its own texts are long and differ by Node version). */
function describeParseError(error: unknown, options: CommandOptions): string {
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  const quoted = /'([^']*)'/.exec(message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) return `unknown option ${JSON.stringify(quoted)}${suggestOption(quoted, options)}`
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted !== undefined) return `unexpected argument ${JSON.stringify(quoted)} (this command takes options only)`
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    const flag = /--[\w-]+/.exec(quoted)?.[0] ?? quoted.split(' ')[0] ?? quoted
    if (/argument missing/.test(message)) return `${flag} needs a value`
    if (/does not take an argument/.test(message)) return `${flag} takes no value`
    if (/ambiguous/.test(message)) return `${flag} needs a value (write ${flag}=<value> for a value that starts with "-")`
  }
  return message.split('\n')[0] ?? message
}
