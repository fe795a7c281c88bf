/** The bytes a terminal sends for the keys the Ink tests press (xterm sequences). */
export const keys = {
  up: '\u001B[A',
  down: '\u001B[B',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  space: ' ',
  backspace: '\u007F',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  ctrlG: '\u0007',
  ctrlR: '\u0012',
  alt: (digit: number): string => `\u001B${digit}`,
} as const
