import type { Key } from 'ink'

/**
 * Turns what Ink hands `useInput` into one event per key. Ink splits its input only around
 * escape sequences, so keys that arrive in one read (a burst of backspaces, text typed or sent
 * with its Enter, a paste) reach the handler as one string. Here a plain string becomes its keys
 * again, except a paste: bracketed (the terminal wraps it in ESC[200~ … ESC[201~ once the app
 * asks with ESC[?2004h), or, on a terminal without bracketed paste, a string whose line break is
 * followed by more text. A paste is one insert, its line breaks never Enter (they stay line
 * breaks, `\r\n` and `\r` as `\n`). Two keys Ink leaves raw are named here: xterm's
 * modifyOtherKeys Enter (`ESC[27;2;13~` for Shift+Enter) becomes Enter with its modifiers, as
 * Ink already reports the kitty form (`ESC[13;2u`), and Esc Esc read at once becomes two Escs.
 */

export interface KeyEvent {
  input: string
  key: Key
  /** Part of a paste: insert as text, never act on it. */
  paste: boolean
}

/** Asks the terminal to bracket pastes, and the reverse (for unmount). */
export const bracketedPasteOn = '\u001B[?2004h'
export const bracketedPasteOff = '\u001B[?2004l'

/** What Ink's `useInput` passes for the paste markers (it strips the leading ESC). */
const PASTE_START = '[200~'
const PASTE_END = '[201~'

export const noKey: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
  home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
  backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
}

/** The state a key reader keeps between reads: whether a bracketed paste is open. */
export interface KeyReaderState {
  pasting: boolean
  /** The paste's last read ended in `\r`: a `\n` starting the next read is the same line break. */
  afterCarriageReturn?: boolean
}

/** xterm modifyOtherKeys: `CSI 27 ; modifiers ; 13 ~` is Enter with modifiers (Ink strips the ESC). */
const MODIFIED_ENTER = /^\[27;(\d+);13~$/

function modifiedEnter(input: string): KeyEvent | undefined {
  const match = MODIFIED_ENTER.exec(input)
  if (match === null) return undefined
  const bits = Math.max(0, Number(match[1]) - 1)
  return { input: '\r', key: { ...noKey, return: true, shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 }, paste: false }
}

/** True when Ink gave a plain string (no key recognised) that may hold several keys. */
function isPlainChunk(input: string, key: Key): boolean {
  const flagged = key.ctrl || key.meta || key.escape || key.return || key.tab || key.backspace || key.delete
    || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.home || key.end || key.pageUp || key.pageDown
  return !flagged && input.length > 1
}

/** A line break followed by more text: typed keys never do that within one read, a paste does. */
function looksPasted(text: string): boolean {
  return /[\r\n][^\r\n]/.test(text)
}

/** One plain character as the key a terminal sends for it. */
function keyOfChar(char: string): KeyEvent | undefined {
  const code = char.codePointAt(0) ?? 0
  if (char === '\r') return { input: '', key: { ...noKey, return: true }, paste: false }
  // LF is Ctrl+J (Enter sends CR): Ink hands a lone one over as the text "\n", so does this
  if (char === '\n') return { input: '\n', key: noKey, paste: false }
  if (char === '\u007F' || char === '\b') return { input: '', key: { ...noKey, backspace: true }, paste: false }
  if (char === '\t') return { input: '', key: { ...noKey, tab: true }, paste: false }
  // Ctrl+A … Ctrl+Z arrive as bytes 1–26; Ink reports them as the letter with `ctrl`.
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...noKey, ctrl: true }, paste: false }
  return undefined
}

/**
 * Splits one `useInput` call into key events and says whether a paste is still open. Pure:
 * the same input, key and state always give the same events.
 */
export function readKeys(input: string, key: Key, state: KeyReaderState): { events: KeyEvent[]; state: KeyReaderState } {
  if (input === PASTE_START) return { events: [], state: { pasting: true } }
  if (input === PASTE_END) return { events: [], state: { pasting: false } }
  if (state.pasting) {
    // Inside a paste every key is text; an Enter inside it arrives flagged, as "\r".
    const raw = key.return ? '\r' : key.tab ? ' ' : input
    const joined = state.afterCarriageReturn === true && raw.startsWith('\n') ? raw.slice(1) : raw
    const text = joined.replace(/\r\n?/g, '\n')
    const next = { pasting: true, afterCarriageReturn: raw === '' ? state.afterCarriageReturn === true : raw.endsWith('\r') }
    return { events: text === '' ? [] : [{ input: text, key: noKey, paste: true }], state: next }
  }
  const enter = modifiedEnter(input)
  if (enter !== undefined) return { events: [enter], state }
  // Ink reads ESC ESC as one Esc whose input is the second ESC
  if (key.escape && input === '\u001B') return { events: [0, 1].map(() => ({ input: '', key, paste: false })), state }
  if (!isPlainChunk(input, key)) return { events: [{ input, key, paste: false }], state }
  if (looksPasted(input)) return { events: [{ input, key: noKey, paste: true }], state }
  const events: KeyEvent[] = []
  let text = ''
  for (const char of input) {
    const single = keyOfChar(char)
    if (single === undefined) {
      text += char
      continue
    }
    if (text !== '') events.push({ input: text, key: noKey, paste: false })
    text = ''
    events.push(single)
  }
  if (text !== '') events.push({ input: text, key: noKey, paste: false })
  return { events, state }
}
