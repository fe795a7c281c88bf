import type { JsonObject } from './json.js'
import { firstUnits, longerThan, longest, ruledOut } from './key-filter.js'
import { COMMAND_SPACES, commandKey, commandSpace, textKey, type CommandMatching } from './normalize.js'
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
  /**
   * The UI event of the first restart event route allowed in `state` (the "Start over" button).
   * Worked out when the index is built: every snapshot asks, and a walk of the routes made each
   * state change O(routes) (issue 32).
   */
  restartEvent: (state: string) => string | undefined
}

/**
 * Route id → position maps that `defineChat`'s validation built for a definition's (frozen) route
 * array: the index takes one instead of hashing 10,000 ids a second time (issue 32 § 2).
 */
const knownPositions = new WeakMap<readonly object[], ReadonlyMap<string, number>>()

/** Hands the index the id → position map of `routes` (each id's first position; validation refused duplicates). */
export function rememberPositions(routes: readonly object[], positions: ReadonlyMap<string, number>): void {
  knownPositions.set(routes, positions)
}

/**
 * Positions under one key: a number while there is one (most keys: no array for each of 10,000
 * commands), an array from the second. `listOf` turns either into the list `candidates` returns.
 */
type Slot = number | number[]

function push(map: Map<string, Slot>, key: string, position: number): void {
  const slot = map.get(key)
  if (slot === undefined) map.set(key, position)
  else if (typeof slot === 'number') {
    if (slot !== position) map.set(key, [slot, position])
  } else if (slot.at(-1) !== position) slot.push(position)
}

const EMPTY: readonly number[] = Object.freeze([])

/** One command key space: its matching mode, its keys and what rules a message out before hashing. */
interface CommandSpace {
  readonly matching: CommandMatching
  readonly map: Map<string, Slot>
  readonly units: Uint8Array
  readonly longest: number
}

/** The command routes of one key space that `input` names (a key longer than every key is not hashed). */
function commandSlot(space: CommandSpace, input: string): Slot | undefined {
  const { matching } = space
  if (ruledOut(space.units, input, matching.trim, !matching.caseSensitive, false)) return undefined
  const key = commandKey(input, matching)
  return key.length > space.longest ? undefined : space.map.get(key)
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

/** Each route id's first position (a table `defineChat` did not validate: explain's inert copy). */
function positionsOf(routes: readonly { readonly id: string }[]): ReadonlyMap<string, number> {
  const positions = new Map<string, number>()
  routes.forEach((route, position) => {
    if (!positions.has(route.id)) positions.set(route.id, position)
  })
  return positions
}

export function buildRouteIndex<Ctx extends JsonObject>(routes: readonly Route<Ctx>[]): RouteIndex<Ctx> {
  const commands: (Map<string, Slot> | undefined)[] = [undefined, undefined, undefined, undefined]
  const texts = new Map<string, Slot>()
  const events = new Map<string, Slot>()
  const typedScan: number[] = []
  const eventScan: number[] = []
  const positions = knownPositions.get(routes) ?? positionsOf(routes)
  // one list per position that a lookup returned alone, made on first use and kept (no allocation per turn)
  const singles: (readonly number[] | undefined)[] = []
  const listOf = (slot: Slot | undefined): readonly number[] | undefined =>
    slot === undefined ? undefined : typeof slot === 'number' ? (singles[slot] ??= Object.freeze([slot])) : slot
  const stateSets: (ReadonlySet<string> | undefined)[] = []
  // The first restart route for any state ends the search: a state named only by a later route never gets it.
  const restarts = new Map<string, string>()
  let restartAnywhere: string | undefined

  routes.forEach((route, position) => {
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
        if (route.restart && restartAnywhere === undefined) {
          if (!route.states) restartAnywhere = route.uiEvent
          else for (const state of route.states) if (!restarts.has(state)) restarts.set(state, route.uiEvent)
        }
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

  const spaces = COMMAND_SPACES.flatMap((matching, space): CommandSpace[] => {
    const map = commands[space]
    return map ? [{ matching, map, units: firstUnits(map.keys()), longest: longest(map.keys()) }] : []
  })
  const hasTexts = texts.size > 0
  const textUnits = firstUnits(texts.keys())
  const longestText = longest(texts.keys())

  return {
    routes,
    positions,
    stateSets,
    knows: (uiEvent) => events.has(uiEvent),
    restartEvent: (state) => restarts.get(state) ?? restartAnywhere,
    candidates(input, uiEvent) {
      if (uiEvent !== undefined) return merge([listOf(events.get(uiEvent)), eventScan])
      // The common case, one list or none, returns it without building the list of lists.
      let found: readonly number[] | undefined = typedScan.length > 0 ? typedScan : undefined
      let lists: (readonly number[] | undefined)[] | undefined
      for (let space = 0; space <= spaces.length; space++) {
        const entry = spaces[space]
        const list = listOf(entry ? commandSlot(entry, input) : hasTexts && !ruledOut(textUnits, input, true, true, true) && !longerThan(input, longestText) ? texts.get(textKey(input)) : undefined)
        if (list === undefined || list.length === 0) continue
        if (found === undefined) found = list
        else (lists ??= [found]).push(list)
      }
      return lists ? merge(lists) : (found ?? EMPTY)
    },
  }
}
