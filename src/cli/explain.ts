import { closestName } from '../conversation/did-you-mean.js'
import { formatTurnExplanation, type ExplainInput } from '../conversation/explain.js'
import { explainTurn } from '../conversation/explain-turn.js'
import type { JsonObject } from '../conversation/json.js'
import { parseCommandArgs, usageErrorText } from './args.js'
import { colorEnabled, palette } from './color.js'
import { paintReport } from './paint-report.js'
import { loadDefinitionArgument } from './definition-module.js'
import type { CommandIo } from './test-command.js'

/**
 * `chatrail explain <module> "<text>" [--state S]`: which route answers a message, and why every
 * other route did not (issue 19 item 5). Loads the module's default export or `definition` (a
 * `defineChat` result; TypeScript through tsx, as `chatrail test` does), explains the input in the
 * initial state or `--state`, and prints one line per route. Exit 0 printed, 1 the module or its
 * definition failed to load, 2 a usage error (unknown state, bad `--context`).
 */

export const explainUsage = `usage: chatrail explain <definition module> "<text>" [options]

Says what a turn with the text does in the given state, as the session decides it (a route, a
re-prompt, a restart, the state's form taking a slot, a stale UI event, or the agent), then, for
every route in order, whether it takes the text and why not: state (the route is restricted to
other states), event (the state does not declare the route's event), no-match, guard (its guard
or the transition's guard refused), or matched. Runs the routes' match functions and guards and a
form's validate, never a route's response.

options:
  --state <name>      the state to explain in (default: the definition's initial state)
  --context <json>    a JSON object shallow-merged into the definition's context (for guards)
  --event <name>      explain a UI event (a button click) instead of typed text
  --json              print the explanation as JSON
  -h, --help          show this help

examples:
  chatrail explain examples/support-bot/definition.ts "/refund 42"
  chatrail explain ./bot.ts "yes" --state confirming --context '{"order":"42"}'`

const defaultIo: CommandIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
}

export function run(args: readonly string[]): Promise<number> {
  return runExplainCommand(args, { ...defaultIo, cwd: process.cwd(), color: colorEnabled(process.stdout, process.env) })
}

export async function runExplainCommand(args: readonly string[], io: CommandIo = defaultIo): Promise<number> {
  const parsed = parseCommandArgs(
    { command: 'explain', positionals: true, options: { state: { type: 'string' }, context: { type: 'string' }, event: { type: 'string' }, json: { type: 'boolean' } } },
    args,
  )
  if (parsed.kind === 'help') {
    io.stdout(explainUsage)
    return 0
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(parsed.message)
    return 2
  }
  const { values, positionals } = parsed
  const [module, text, ...extra] = positionals
  const wanted = values.event === undefined ? 2 : 1
  if (module === undefined || (values.event === undefined && text === undefined) || positionals.length > wanted) {
    const problem = module === undefined ? 'give the definition module' : positionals.length > wanted ? `unexpected argument ${JSON.stringify(extra[0] ?? text)} (quote a text with spaces: "…")` : 'give the text to explain (or --event <name>)'
    io.stderr(usageErrorText('explain', problem))
    return 2
  }
  let patch: JsonObject = {}
  if (values.context !== undefined) {
    try {
      const value: unknown = JSON.parse(values.context)
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object')
      patch = value as JsonObject
    } catch {
      io.stderr(usageErrorText('explain', `--context takes a JSON object, got ${JSON.stringify(values.context)}`))
      return 2
    }
  }
  const definition = await loadDefinitionArgument('explain', module, io.cwd)
  if ('error' in definition) {
    io.stderr(definition.error)
    return 1
  }
  const states = Object.keys(definition.conversation.states)
  const state = values.state ?? definition.conversation.initial
  if (!states.includes(state)) {
    const close = closestName(state, states)
    io.stderr(usageErrorText('explain', `--state ${JSON.stringify(state)} is not a state of ${definition.id}${close === undefined ? '' : ` (did you mean ${JSON.stringify(close)}?)`}; states: ${states.join(', ')}`))
    return 2
  }
  const input: ExplainInput = values.event === undefined ? (text ?? '') : { uiEvent: values.event, ...(text === undefined ? {} : { text }) }
  const explanation = await explainTurn(definition, { state, context: { ...definition.conversation.context, ...patch } }, input)
  io.stdout(values.json === true ? JSON.stringify({ definition: definition.id, state, input, outcome: explanation.outcome, routes: explanation.routes }, null, 2) : paintReport(formatTurnExplanation(explanation), palette(io.color === true), { heading: true }))
  return 0
}
