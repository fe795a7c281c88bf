/** The bytes a terminal sends for the keys the Ink tests press (xterm sequences). */
export const keys = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  home: '\u001B[H',
  end: '\u001B[F',
  pageDown: '\u001B[6~',
  pageUp: '\u001B[5~',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  space: ' ',
  backspace: '\u007F',
  ctrlA: '\u0001',
  ctrlC: '\u0003',
  ctrlE: '\u0005',
  ctrlK: '\u000B',
  ctrlU: '\u0015',
  ctrlW: '\u0017',
  ctrlD: '\u0004',
  ctrlG: '\u0007',
  ctrlR: '\u0012',
  ctrlT: '\u0014',
  /** Ctrl+← and Ctrl+→ as xterm reports them (CSI 1;5 D / C). */
  ctrlLeft: '\u001B[1;5D',
  ctrlRight: '\u001B[1;5C',
  /** LF: Ctrl+J (Enter sends CR). */
  ctrlJ: '\n',
  /** Shift+Enter as kitty's keyboard protocol (CSI-u) reports it; xterm's modifyOtherKeys sends `ESC[27;2;13~`. */
  shiftEnter: '\u001B[13;2u',
  shiftEnterXterm: '\u001B[27;2;13~',
  alt: (digit: number): string => `\u001B${digit}`,
  /** A paste as a terminal with bracketed paste mode on delivers it. */
  paste: (text: string): string => `\u001B[200~${text}\u001B[201~`,
} as const
