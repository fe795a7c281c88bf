/**
 * Ruling a message out of the exact-key routes (commands, texts) before normalising or hashing it
 * (issue 20: on a turn no route matches, that was most of the route lookup, and for a long message
 * the text key's NFKC pass cost more than the whole turn). Each check answers `true` only when no
 * key can match; test/conversation/routes.test.ts holds them to that against the normalisers.
 */

/** ASCII whitespace, as `String.prototype.trim` and `\s` see it. */
const isAsciiSpace = (unit: number): boolean => unit === 32 || (unit >= 9 && unit <= 13)
/** An ASCII letter lowercased, as `toLowerCase` does it (no other ASCII unit changes). */
const asciiLower = (unit: number): number => (unit >= 65 && unit <= 90 ? unit + 32 : unit)

/** The first UTF-16 unit of every key, for the ASCII ones (a set of 128 flags). */
export function firstUnits(keys: Iterable<string>): Uint8Array {
  const units = new Uint8Array(128)
  for (const key of keys) {
    const unit = key.charCodeAt(0)
    if (unit < 128) units[unit] = 1
  }
  return units
}

export function longest(keys: Iterable<string>): number {
  let max = 0
  for (const key of keys) max = Math.max(max, key.length)
  return max
}

/**
 * Whether no key in `units` can be the key of `input`. The key's first unit is known when the
 * input starts with an ASCII character that normalising keeps first: not whitespace that trimming
 * drops, and (for text keys, which are NFKC-normalised: `composes`) not followed by a non-ASCII
 * unit that could compose with it (`e` + U+0301 is `é`).
 */
export function ruledOut(units: Uint8Array, input: string, trim: boolean, lower: boolean, composes: boolean): boolean {
  const unit = input.charCodeAt(0)
  if (!(unit < 128) || (trim && isAsciiSpace(unit))) return false
  if (composes && input.length > 1 && !(input.charCodeAt(1) < 128)) return false
  return units[lower ? asciiLower(unit) : unit] !== 1
}

/**
 * Whether an all-ASCII `input` has more non-space characters than `max`: then its text key (NFKC
 * changes no ASCII text; trimming and collapsing whitespace drop only spaces) is longer than every
 * text key. Stops at the first non-ASCII unit, or once past `max`, so a long message costs O(max).
 */
export function longerThan(input: string, max: number): boolean {
  let count = 0
  for (let i = 0; i < input.length; i++) {
    const unit = input.charCodeAt(i)
    if (unit >= 128) return false
    if (!isAsciiSpace(unit) && ++count > max) return true
  }
  return false
}
