import { createInterface } from 'node:readline'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession } from '../../src/index.js'
import { answerFromLine, dialogLines } from './dialog-input.js'
import { createCodingAgentRouter } from './router.js'
import { parseRouterArgs } from './router-args.js'

/**
 * A terminal chat in front of a coding agent:
 *
 *   npx tsx examples/coding-agent-router/main.ts [--codex] [--cwd DIR] [--bin PATH]
 *
 * `/help`, `/status` and `/diff` are answered here; anything else is a turn of Claude Code (or
 * Codex with --codex) in DIR. While a turn runs, the agent's run state is printed as it changes, a
 * dialog it opens is shown and the next line you type answers it; `/stop` aborts the turn.
 */

const options = parseRouterArgs(process.argv.slice(2), process.cwd())
const adapterOptions = options.bin !== undefined ? { bin: options.bin } : {}
const router = createCodingAgentRouter({ agent: options.agent, cwd: options.cwd, claudeCode: adapterOptions, codex: adapterOptions })
const session = createChatSession(router.definition)
const controller = createChatController(session.chat)
controller.subscribe(() => session.sync(controller.getState().messages))

// Print the reply as it streams: the new tail of the last assistant message.
let printed = { id: '', length: 0 }
controller.subscribe(() => {
  const last = controller.getState().messages.at(-1)
  if (last?.role !== 'assistant') return
  if (last.id !== printed.id) printed = { id: last.id, length: 0 }
  if (last.content.length > printed.length) {
    process.stdout.write(last.content.slice(printed.length))
    printed.length = last.content.length
  }
})

// Print the agent's run state when it changes, and any dialog it opens.
let lastState = ''
session.subscribe(() => {
  const agent = session.getSnapshot().agent
  if (!agent) return
  const line = `[${router.agentName}: ${agent.state}/${agent.status}${agent.detail ? ` — ${agent.detail}` : ''}]`
  if (line === lastState) return
  lastState = line
  process.stdout.write(`\n${line}\n`)
  if (agent.pendingDialog) process.stdout.write(`${dialogLines(agent.pendingDialog).join('\n')}\n`)
})

const input = createInterface({ input: process.stdin, terminal: false })
let turn: Promise<void> = Promise.resolve()
input.on('line', (line) => {
  const dialog = session.getSnapshot().agent?.pendingDialog
  if (dialog && line.trim() !== '/stop') {
    session.answerDialog(dialog.toolId, answerFromLine(dialog, line)).then(
      (result) => {
        // A dialog left by an ended turn is answered by sending the answer as the next message.
        if (result.delivered === 'next-turn') turn = turn.then(() => send(result.text))
      },
      (error: unknown) => process.stdout.write(`could not answer: ${String(error)}\n`),
    )
    return
  }
  if (line.trim() === '/stop') {
    controller.stop()
    return
  }
  turn = turn.then(() => send(line))
})
input.on('close', () => {
  void turn.then(() => {
    session.dispose()
  })
})

async function send(text: string): Promise<void> {
  await controller.send(text)
  const state = controller.getState()
  if (state.error) process.stdout.write(`\nerror: ${state.error.message}\n`)
  process.stdout.write('\n')
}

process.stdout.write(`chatrail coding-agent router — ${router.agentName} in ${options.cwd}. Type /help.\n`)
