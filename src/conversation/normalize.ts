/**
 * Text keys for exact routes. Pure. `textKey` is the loose equality of text routes (NFKC, trim,
 * whitespace runs collapsed to one space, lowercase); `commandKey` is the exact command equality,
 * optionally trimmed and case-folded.
 */

export function textKey(input: string): string {
  return input.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase()
}

export interface CommandMatching {
  /** Default `true`: `/Start` does not match `/start`. */
  caseSensitive: boolean
  /** Default `true`: surrounding whitespace is ignored. */
  trim: boolean
}

export function commandKey(input: string, matching: CommandMatching): string {
  const trimmed = matching.trim ? input.trim() : input
  return matching.caseSensitive ? trimmed : trimmed.toLowerCase()
}

/** Which of the four command key spaces a matching mode lives in (index into a fixed array). */
export function commandSpace(matching: CommandMatching): 0 | 1 | 2 | 3 {
  return ((matching.caseSensitive ? 0 : 1) + (matching.trim ? 0 : 2)) as 0 | 1 | 2 | 3
}

export const COMMAND_SPACES: readonly CommandMatching[] = [
  { caseSensitive: true, trim: true },
  { caseSensitive: false, trim: true },
  { caseSensitive: true, trim: false },
  { caseSensitive: false, trim: false },
]
