/**
 * Text from outside (transcripts, rollouts, an OpenCode session's title, a model's reply) printed to
 * a terminal must never reach it as commands: ESC starts sequences that set the window title, clear
 * the screen, move the cursor or write the clipboard (OSC 52), and the 8-bit C1 controls (U+0080–
 * U+009F, e.g. U+009B CSI) start them too on terminals that honour them. One function for every
 * surface that prints (`chatrail inspect`, `chatrail sessions` and its watch view, the Ink
 * renderer), kept here, at the bottom layer, so the CLI, the agents' table text and the renderers
 * can all import it. Pure. It lives beside the shapes because every layer that prints needs it.
 *
 * Controls are shown, not dropped, so what the file held stays visible: a C0 control becomes its
 * Unicode control picture (ESC → `␛`, BEL → `␇`, CR → `␍`), DEL becomes `␡`, a C1 control becomes
 * the text `\x9b`. Newline and tab are text and stay (a `\r\n` line end becomes `\n`), unless
 * `singleLine`, where they become spaces (a table cell).
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /\r\n|[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS_SINGLE_LINE = /\r\n|[\u0000-\u001F\u007F-\u009F]/g

export interface TerminalTextOptions {
  /** Newlines and tabs become spaces too (one line of a table). */
  singleLine?: boolean
}

export function terminalText(text: string, options: TerminalTextOptions = {}): string {
  const single = options.singleLine === true
  return text.replace(single ? CONTROLS_SINGLE_LINE : CONTROLS, (control) => {
    if (control === '\r\n') return single ? ' ' : '\n'
    if (single && (control === '\n' || control === '\t')) return ' '
    const code = control.charCodeAt(0)
    if (code < 0x20) return String.fromCharCode(0x2400 + code)
    if (code === 0x7f) return '\u2421'
    return `\\x${code.toString(16)}`
  })
}

const JSON_RAW_CONTROLS = /[\u007F-\u009F]/g

/**
 * JSON text for a terminal: `JSON.stringify` escapes C0 controls but leaves DEL and C1 raw; they
 * become `\u007f`…`\u009f` escapes, so the JSON means exactly the same value.
 */
export function terminalJson(json: string): string {
  return json.replace(JSON_RAW_CONTROLS, (control) => `\\u00${control.charCodeAt(0).toString(16)}`)
}
