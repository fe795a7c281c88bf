/**
 * Whether the CLI colours its output, and the few styles it uses. One rule for every command:
 * `FORCE_COLOR` decides when set (`0`/`false` off, anything else on, even through a pipe); else a
 * non-empty `NO_COLOR` turns colour off (https://no-color.org); else colour only on a terminal
 * that is not `TERM=dumb`. The Ink views (`demo`, `sessions --watch`) follow the same rule through
 * `applyColorPolicyToInk`.
 */

export interface ColorTarget {
  readonly isTTY?: boolean
}

export function colorEnabled(target: ColorTarget, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force !== 'false'
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  return target.isTTY === true && env.TERM !== 'dumb'
}

/**
 * Ink colours through chalk, whose detection reads `FORCE_COLOR` but not `NO_COLOR`: under a
 * non-empty `NO_COLOR` (and no `FORCE_COLOR`), set `FORCE_COLOR=0` before Ink loads, so the
 * terminal views are as plain as the printed ones.
 */
export function applyColorPolicyToInk(env: NodeJS.ProcessEnv): void {
  if (env.FORCE_COLOR === undefined && env.NO_COLOR !== undefined && env.NO_COLOR !== '') env.FORCE_COLOR = '0'
}

export interface Palette {
  readonly enabled: boolean
  readonly bold: (text: string) => string
  readonly dim: (text: string) => string
  readonly red: (text: string) => string
  readonly green: (text: string) => string
  readonly yellow: (text: string) => string
  readonly cyan: (text: string) => string
}

const sgr = (open: number, close: number) => (text: string): string => (text === '' ? text : `\u001B[${open}m${text}\u001B[${close}m`)
const plain = (text: string): string => text

export function palette(enabled: boolean): Palette {
  if (!enabled) return { enabled, bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain }
  return { enabled, bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) }
}

/** The palette for the process's stdout under the process's environment. */
export function stdoutPalette(): Palette {
  return palette(colorEnabled(process.stdout, process.env))
}
