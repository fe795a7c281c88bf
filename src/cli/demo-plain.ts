import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import type { AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk } from '../contract/stream.js'
import { createChatController } from '../controller/create-chat-controller.js'
import type { ChatrailController } from '../controller/chatrail-controller.js'
import { scriptedAdapter } from '../testing/scripted-adapter.js'

/**
 * `chatrail demo` (plain): a stdin/stdout conversation over the chat controller, answered by a
 * small scripted adapter that streams word by word. Lines are handled in order; EOF lets the
 * running reply finish, Ctrl+C stops it; both exit 0.
 */

export const demoUsage = `usage: chatrail demo [--delay <ms>]

A plain terminal conversation over chatrail's chat controller, answered by a scripted adapter.
Type a message and press Enter. Commands: /retry, /clear, /help, /exit. Ctrl+C or Ctrl+D quits.

options:
  --delay <ms>   pause between streamed words (default 25)
  -h, --help     show this help`

export interface DemoIo {
  input: Readable & { isTTY?: boolean }
  output: Writable
}

const lastUser = (request: AdapterRequest): string =>
  [...request.messages].reverse().find((message) => message.role === 'user')?.content.trim() ?? ''

/** The scripted reply to one request: a pure function of the history. */
export function demoReply(request: AdapterRequest): string {
  const text = lastUser(request)
  const turn = request.messages.filter((message) => message.role === 'user').length
  if (/^(hi|hello|hey)\b/i.test(text)) return 'Hello! I am the chatrail plain demo. Ask me anything, or type /help.'
  if (/\bhelp\b/i.test(text)) return 'Commands: /retry asks again, /clear starts over, /exit quits. Everything else is echoed by a scripted adapter.'
  return `You said "${text}". That is message ${turn} of this conversation; a scripted adapter streamed this reply through the controller.`
}

/** Streams `text` word by word, `delayMs` apart. */
async function* words(text: string, delayMs: number): AsyncGenerator<StreamChunk> {
  const parts = text.split(/(?<= )/)
  for (const part of parts) {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    yield { type: 'text', content: part }
  }
  yield { type: 'done' }
}

function parseDelay(args: readonly string[]): number | string {
  const at = args.indexOf('--delay')
  if (at < 0) return 25
  const value = Number(args[at + 1])
  return Number.isFinite(value) && value >= 0 ? value : `--delay needs a number of milliseconds >= 0 (got ${JSON.stringify(args[at + 1] ?? '')})`
}

/**
 * Prints the assistant's new text as it streams (only the suffix not yet written); `endLine`
 * closes the line when anything was printed since the last call.
 */
function streamPrinter(controller: ChatrailController, write: (text: string) => void): { endLine: () => void; stop: () => void } {
  let printedId: string | undefined
  let printed = 0
  let open = false
  const stop = controller.subscribe(() => {
    const last = controller.getState().messages.at(-1)
    if (last?.role !== 'assistant') return
    if (last.id !== printedId) {
      printedId = last.id
      printed = 0
      open = true
      write('bot> ')
    }
    if (last.content.length > printed) {
      write(last.content.slice(printed))
      printed = last.content.length
    }
  })
  const endLine = (): void => {
    if (open) write('\n')
    open = false
  }
  return { endLine, stop }
}

export async function run(args: readonly string[], io: DemoIo = { input: process.stdin, output: process.stdout }): Promise<number> {
  const write = (text: string): void => void io.output.write(text)
  if (args.includes('--help') || args.includes('-h')) {
    write(`${demoUsage}\n`)
    return 0
  }
  const delay = parseDelay(args)
  if (typeof delay === 'string') {
    process.stderr.write(`chatrail demo: ${delay}\n\n${demoUsage}\n`)
    return 2
  }
  const controller = createChatController({ adapter: scriptedAdapter([(request) => words(demoReply(request), delay)]) })
  const printer = streamPrinter(controller, write)
  const interactive = io.input.isTTY === true
  const lines = createInterface({ input: io.input, output: interactive ? io.output : undefined, terminal: interactive })
  let closed = false
  lines.on('close', () => {
    closed = true
  })
  const interrupt = (): void => {
    controller.stop()
    lines.close()
  }
  lines.on('SIGINT', interrupt)
  process.once('SIGINT', interrupt)
  write('chatrail plain demo. Type a message (/help for commands, Ctrl+D to quit).\n')
  const prompt = (): void => {
    if (interactive && !closed) {
      lines.setPrompt('you> ')
      lines.prompt()
    }
  }
  prompt()
  try {
    for await (const line of lines) {
      const text = line.trim()
      if (text === '/exit' || text === '/quit') break
      if (text === '/clear') {
        await controller.clear()
        write('(conversation cleared)\n')
      } else if (text === '/retry') {
        if (controller.getState().messages.length === 0) write('(nothing to retry)\n')
        await controller.retry()
      } else if (text === '/help') {
        write(`${demoUsage}\n`)
      } else if (text) {
        await controller.send(text)
      }
      printer.endLine()
      prompt()
    }
  } finally {
    process.removeListener('SIGINT', interrupt)
    controller.stop()
    printer.endLine()
    printer.stop()
    lines.close()
    // readline leaves a TTY stdin flowing after an interrupt, which would keep the process alive.
    io.input.pause()
  }
  write('bye\n')
  return 0
}
