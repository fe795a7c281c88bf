import xtermHeadless from '@xterm/headless'
import { spawn } from 'node-pty'

/**
 * A program in a real pseudo-terminal (node-pty), read through a real terminal emulator
 * (xterm headless), so tests assert what a person would see on the screen, after Ink's cursor
 * moves and line erasing, rather than a raw byte stream.
 */

export interface PtyTerminal {
  /** Bytes typed into the terminal. */
  write: (data: string) => void
  /** Scrollback plus the visible screen, one string per line, trailing blanks trimmed. */
  screen: () => string
  /**
   * The rows (scrollback included) that continue the row above because the program wrote past
   * the terminal's width: the screen lines that are really wider than the terminal.
   */
  wrappedRows: () => string[]
  /** Everything the program wrote, raw. */
  raw: () => string
  /** Polls (bounded) until the screen satisfies `expected`; the error shows the last screen. */
  waitFor: (expected: string | ((screen: string) => boolean), timeoutMs?: number) => Promise<string>
  exited: Promise<{ exitCode: number; signal: number | undefined }>
  kill: () => void
  /** Resizes the pseudo-terminal (the program gets SIGWINCH) and the emulator, as dragging a window does. */
  resize: (cols: number, rows: number) => void
}

export interface PtyOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  cols?: number
  rows?: number
}

const { Terminal } = xtermHeadless

export function startPty(file: string, args: readonly string[], options: PtyOptions): PtyTerminal {
  const cols = options.cols ?? 100
  const rows = options.rows ?? 40
  const terminal = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true })
  const child = spawn(file, [...args], { name: 'xterm-256color', cols, rows, cwd: options.cwd, env: options.env })
  let raw = ''
  let pendingWrites = 0
  child.onData((data) => {
    raw += data
    pendingWrites += 1
    terminal.write(data, () => {
      pendingWrites -= 1
    })
  })
  let finished = false
  const exited = new Promise<{ exitCode: number; signal: number | undefined }>((resolve) => {
    child.onExit(({ exitCode, signal }) => {
      finished = true
      resolve({ exitCode, signal })
    })
  })

  const screen = (): string => {
    const buffer = terminal.buffer.active
    const lines: string[] = []
    for (let index = 0; index < buffer.length; index += 1) lines.push(buffer.getLine(index)?.translateToString(true) ?? '')
    return lines.join('\n').replace(/\s+$/, '')
  }

  const wrappedRows = (): string[] => {
    const buffer = terminal.buffer.active
    const rows: string[] = []
    for (let index = 0; index < buffer.length; index += 1) {
      const line = buffer.getLine(index)
      if (line?.isWrapped === true) rows.push(line.translateToString(true))
    }
    return rows
  }

  const waitFor = async (expected: string | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> => {
    const matches = typeof expected === 'string' ? (text: string) => text.includes(expected) : expected
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const text = screen()
      if (pendingWrites === 0 && matches(text)) return text
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof expected === 'string' ? JSON.stringify(expected) : 'the screen'}; screen:\n${text}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  return {
    write: (data) => child.write(data),
    screen,
    wrappedRows,
    raw: () => raw,
    waitFor,
    exited,
    kill: () => {
      if (!finished) child.kill('SIGKILL')
    },
    resize: (newCols, newRows) => {
      // The emulator first, as a real terminal reflows its lines before the program hears of it.
      terminal.resize(newCols, newRows)
      child.resize(newCols, newRows)
    },
  }
}
