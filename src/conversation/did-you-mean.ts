/**
 * The one "did you mean" of chatrail: definitions, conversation files, the definition loader and
 * the CLI (mistyped commands, flags and agent names) all suggest names through it, so a typo is
 * caught the same way everywhere. Pure; no imports, so the CLI can load it before any command.
 */

/** Edit distance (Levenshtein), case-insensitive. Pure. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  let previous = Array.from({ length: y.length + 1 }, (_, i) => i)
  for (let i = 1; i <= x.length; i++) {
    const current = [i]
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
    }
    previous = current
  }
  return previous[y.length] ?? 0
}

/**
 * The candidate `name` most likely meant, else `undefined`. A name of three or more characters
 * that begins a longer candidate is taken as its abbreviation (`claude` → `claude-code`), however
 * far apart they are by edit distance. Otherwise the nearest candidate counts when its distance is
 * at most a third of the longer name (minimum 2): `tset` → `test`, `--agnet` → `--agent`. Ties go
 * to the earlier candidate.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  // A development aid (issue 32): a production bundle (`process.env.NODE_ENV` defined as "production",
  // as bundlers do) has no edit distance, and its hints list the declared names instead. Written so
  // the minifier drops `nearestName`, as session.ts drops the lint pass.
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production') return nearestName(name, [...candidates])
  return undefined
}

function nearestName(name: string, list: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  if (lower.length >= 3) {
    const abbreviated = list.find((candidate) => candidate.length > lower.length && candidate.toLowerCase().startsWith(lower))
    if (abbreviated !== undefined) return abbreviated
  }
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of list) {
    const d = distance(name, candidate)
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  if (best === undefined) return undefined
  const limit = Math.max(2, Math.floor(Math.max(name.length, best.length) / 3))
  return bestDistance <= limit ? best : undefined
}

/** ` Did you mean "x"?` (with its leading space, to append to a sentence), or `''`. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closestName(name, candidates)
  return close === undefined ? '' : ` Did you mean "${close}"?`
}

/** `did you mean "x"?`, or the list of declared names when nothing is close. */
export function suggestName(name: string, candidates: readonly string[], noun: string): string {
  const close = closestName(name, candidates)
  if (close !== undefined) return `Did you mean "${close}"?`
  if (candidates.length === 0) return `No ${noun} is declared yet.`
  const shown = candidates.slice(0, 8).map((c) => `"${c}"`).join(', ')
  return `Declared ${noun}s: ${shown}${candidates.length > 8 ? ', …' : ''}.`
}
