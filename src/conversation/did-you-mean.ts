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
 * The declared name closest to `name`, when it is close enough to be a likely typo (distance at
 * most a third of the longer name, minimum 2), else `undefined`. Ties go to the earlier candidate.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of candidates) {
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

/** `did you mean "x"?`, or the list of declared names when nothing is close. */
export function suggestName(name: string, candidates: readonly string[], noun: string): string {
  const close = closestName(name, candidates)
  if (close !== undefined) return `Did you mean "${close}"?`
  if (candidates.length === 0) return `No ${noun} is declared yet.`
  const shown = candidates.slice(0, 8).map((c) => `"${c}"`).join(', ')
  return `Declared ${noun}s: ${shown}${candidates.length > 8 ? ', …' : ''}.`
}
