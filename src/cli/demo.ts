import { ChatrailError } from '../contract/errors.js'
import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import { usageErrorText } from './args.js'
import { loadAgentAdapter } from './demo/agent-adapter.js'
import { demoHelp, parseDemoArgs } from './demo/demo-args.js'
import { demoDefinition, demoEventLabels, demoRoutes } from './demo/demo-definition.js'
import { resolveDemoAgent } from './demo/resolve-demo-agent.js'
import type { DemoAgentChoice } from './demo/resolve-demo-agent.js'

/**
 * `chatrail demo` (what `npm start` runs): the support-bot workflow in the terminal through the
 * Ink renderer, with a coding agent (or the offline adapter) as its agentic fallback. The Ink
 * renderer is imported lazily: `src/` itself never loads React or Ink.
 */

export interface DemoIo {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  stdin: NodeJS.ReadStream
  env: NodeJS.ProcessEnv
  cwd: string
}

const processIo = (): DemoIo => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() })

function backendLabel(choice: DemoAgentChoice): string {
  return choice.agent === 'offline' ? 'offline: no agent connected' : choice.agent
}

/** The first command that moves the conversation out of its initial state (the tip's example). */
function startingCommand<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>): string | undefined {
  const { initial, states, routes } = definition.conversation
  const on = states[initial]?.on ?? {}
  for (const route of routes) {
    if (route.kind !== 'command' || route.event === undefined || (route.states !== undefined && !route.states.includes(initial))) continue
    const transition = on[route.event]
    const target = typeof transition === 'string' ? transition : transition?.target
    if (target !== undefined && target !== initial) return route.command
  }
  return undefined
}

export async function run(args: readonly string[], io: DemoIo = processIo()): Promise<number> {
  const parsed = parseDemoArgs(args, io.env)
  if (parsed.kind === 'help') {
    io.stdout.write(demoHelp)
    return 0
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`${usageErrorText('demo', parsed.message)}\n`)
    return 2
  }
  if (io.stdin.isTTY !== true) {
    io.stderr.write('chatrail demo: the demo is interactive and needs a terminal (stdin is not a TTY).\nRun it in a terminal, or see `chatrail demo --help`.\n')
    return 2
  }

  let choice: DemoAgentChoice
  try {
    if (parsed.agent === 'auto') {
      io.stdout.write(`Looking for a coding agent for unmatched input (at most ${(parsed.probeTimeoutMs / 1000).toFixed(0)} s; --agent offline skips this)…\n`)
    }
    choice = await resolveDemoAgent({ requested: parsed.agent, env: io.env, cwd: io.cwd, timeoutMs: parsed.probeTimeoutMs })
  } catch (error) {
    if (!ChatrailError.isInstance(error)) throw error
    io.stderr.write(`chatrail demo: ${error.toString()}\n`)
    return 2
  }
  const adapter = await loadAgentAdapter(choice, demoRoutes, io.cwd)
  const definition = demoDefinition(adapter)
  const command = startingCommand(definition)
  const tip = command === undefined ? '' : `\nTry ${command}; anything the routes do not match goes to the agent.`
  // Printed by Ink above the log (not written here), so a resize that prints the log again keeps it.
  const header = `chatrail demo · support bot\nagent: ${choice.reason}${tip}`

  const { renderInkChat } = await import('../../renderers/ink/index.js')
  const instance = renderInkChat(definition, { backend: backendLabel(choice), header, eventLabels: demoEventLabels })
  await instance.waitUntilExit()
  return 0
}
