import type { JsonObject } from './json.js'
import { COMMAND_SPACES, commandKey, commandSpace, textKey } from './normalize.js'
import type { Route } from './routes.js'

/**
 * The route table compiled for lookup. Exact routes (commands, texts, UI events) live in hash maps
 * keyed by their normalised key, so the last of 10,000 commands costs what the first does; pattern
 * and custom routes stay in a scan list. `candidates` merges both in declaration order, so the
 * index changes cost, never semantics: the first eligible match in declaration order still wins.
 */
export interface RouteIndex<Ctx extends JsonObject = JsonObject> {
  readonly routes: readonly Route<Ctx>[]
  /** Route id → position in declaration order. */
  readonly positions: ReadonlyMap<string, number>
  /** `states` of each route as a set (undefined: any state). */
  readonly stateSets: readonly (ReadonlySet<string> | undefined)[]
  /**
   * Positions of the routes that could match `input`, ascending (declaration order). Exact routes
   * appear only when their key matches; pattern and custom routes always appear (they decide when
   * evaluated). A message carrying a UI event is a candidate for event and custom routes only.
   * Pure; the returned array must not be mutated.
   */
  candidates: (input: string, uiEvent: string | undefined) => readonly number[]
  /** Whether some event route takes this UI event (in some state). */
  knows: (uiEvent: string) => boolean
  /** The UI event of the first restart event route allowed in `state` (the "Start over" button). */
  restartEvent: (state: string) => string | undefined
}

function push(map: Map<string, number[]>, key: string, position: number): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [position])
  else if (list.at(-1) !== position) list.push(position)
}

const EMPTY: readonly number[] = Object.freeze([])

/**
 * The first UTF-16 unit of every key in a map, for the ASCII ones: a message whose key would start
 * with an ASCII character no key starts with cannot match, and is ruled out without normalising it
 * or hashing it (issue 20: on a turn no route matches, that was most of the lookup).
 */
function firstUnits(keys: Iterable<string>): Uint8Array {
  const units = new Uint8Array(128)
  for (const key of keys) {
    const unit = key.charCodeAt(0)
    if (unit < 128) units[unit] = 1
  }
  return units
}

/** ASCII whitespace, as `String.prototype.trim` and `\s` see it. */
const isAsciiSpace = (unit: number): boolean => unit === 32 || (unit >= 9 && unit <= 13)
/** An ASCII letter lowercased, as `toLowerCase` does it (no other ASCII unit changes). */
const asciiLower = (unit: number): number => (unit >= 65 && unit <= 90 ? unit + 32 : unit)

/**
 * Whether no key in `units` can be the key of `input` (true only when that is certain). The key's
 * first unit is known when the input starts with an ASCII character that normalising keeps first:
 * not whitespace that trimming drops, and (for text keys, which are NFKC-normalised) not followed
 * by a non-ASCII unit that could compose with it (`e` + U+0301 is `é`).
 */
function ruledOut(units: Uint8Array, input: string, trim: boolean, lower: boolean, composes: boolean): boolean {
  const unit = input.charCodeAt(0)
  if (!(unit < 128) || (trim && isAsciiSpace(unit))) return false
  if (composes && input.length > 1 && !(input.charCodeAt(1) < 128)) return false
  return units[lower ? asciiLower(unit) : unit] !== 1
}

function merge(lists: (readonly number[] | undefined)[]): readonly number[] {
  let only: readonly number[] | undefined
  let count = 0
  for (const list of lists) {
    if (list !== undefined && list.length > 0) {
      only = list
      count++
    }
  }
  if (count === 0) return EMPTY
  if (count === 1 && only) return only
  const merged: number[] = []
  for (const list of lists) if (list) merged.push(...list)
  merged.sort((a, b) => a - b)
  return merged.filter((value, i) => i === 0 || merged[i - 1] !== value)
}

export function buildRouteIndex<Ctx extends JsonObject>(routes: readonly Route<Ctx>[]): RouteIndex<Ctx> {
  const commands: (Map<string, number[]> | undefined)[] = [undefined, undefined, undefined, undefined]
  const texts = new Map<string, number[]>()
  const events = new Map<string, number[]>()
  const typedScan: number[] = []
  const eventScan: number[] = []
  const positions = new Map<string, number>()
  const stateSets: (ReadonlySet<string> | undefined)[] = []

  routes.forEach((route, position) => {
    positions.set(route.id, position)
    stateSets.push(route.states ? new Set(route.states) : undefined)
    switch (route.kind) {
      case 'command': {
        const space = commandSpace(route)
        const map = (commands[space] ??= new Map())
        push(map, commandKey(route.command, route), position)
        break
      }
      case 'text':
        for (const text of route.texts) push(texts, textKey(text), position)
        break
      case 'event':
        push(events, route.uiEvent, position)
        break
      case 'pattern':
        typedScan.push(position)
        break
      case 'custom':
        typedScan.push(position)
        eventScan.push(position)
        break
    }
  })

  const spaces = COMMAND_SPACES.flatMap((matching, space) => {
    const map = commands[space]
    return map ? [{ matching, map, units: firstUnits(map.keys()) }] : []
  })
  const hasTexts = texts.size > 0
  const textUnits = firstUnits(texts.keys())

  return {
    routes,
    positions,
    stateSets,
    knows: (uiEvent) => events.has(uiEvent),
    restartEvent(state) {
      for (const [position, route] of routes.entries()) {
        if (route.kind === 'event' && route.restart && (stateSets[position]?.has(state) ?? true)) return route.uiEvent
      }
      return undefined
    },
    candidates(input, uiEvent) {
      if (uiEvent !== undefined) return merge([events.get(uiEvent), eventScan])
      // The common case, one list or none, returns it without building the list of lists.
      let found: readonly number[] | undefined = typedScan.length > 0 ? typedScan : undefined
      let lists: (readonly number[] | undefined)[] | undefined
      for (let space = 0; space <= spaces.length; space++) {
        const entry = spaces[space]
        const list = entry
          ? ruledOut(entry.units, input, entry.matching.trim, !entry.matching.caseSensitive, false) ? undefined : entry.map.get(commandKey(input, entry.matching))
          : hasTexts && !ruledOut(textUnits, input, true, true, true) ? texts.get(textKey(input)) : undefined
        if (list === undefined || list.length === 0) continue
        if (found === undefined) found = list
        else (lists ??= [found]).push(list)
      }
      return lists ? merge(lists) : (found ?? EMPTY)
    },
  }
}
