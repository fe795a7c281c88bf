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

function push(map: Map<string, number[]>, key: string, position: number): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [position])
  else if (list.at(-1) !== position) list.push(position)
}

const EMPTY: readonly number[] = Object.freeze([])

/** One command key space: its matching mode, its keys and what rules a message out before hashing. */
interface CommandSpace {
  readonly matching: CommandMatching
  readonly map: Map<string, number[]>
  readonly units: Uint8Array
  readonly longest: number
}

/** The command routes of one key space that `input` names (a key longer than every key is not hashed). */
function commandList(space: CommandSpace, input: string): number[] | undefined {
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

export function buildRouteIndex<Ctx extends JsonObject>(routes: readonly Route<Ctx>[]): RouteIndex<Ctx> {
  const commands: (Map<string, number[]> | undefined)[] = [undefined, undefined, undefined, undefined]
  const texts = new Map<string, number[]>()
  const events = new Map<string, number[]>()
  const typedScan: number[] = []
  const eventScan: number[] = []
  const positions = new Map<string, number>()
  const stateSets: (ReadonlySet<string> | undefined)[] = []
  // The first restart route for any state ends the search: a state named only by a later route never gets it.
  const restarts = new Map<string, string>()
  let restartAnywhere: string | undefined

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
      if (uiEvent !== undefined) return merge([events.get(uiEvent), eventScan])
      // The common case, one list or none, returns it without building the list of lists.
      let found: readonly number[] | undefined = typedScan.length > 0 ? typedScan : undefined
      let lists: (readonly number[] | undefined)[] | undefined
      for (let space = 0; space <= spaces.length; space++) {
        const entry = spaces[space]
        const list = entry ? commandList(entry, input) : hasTexts && !ruledOut(textUnits, input, true, true, true) && !longerThan(input, longestText) ? texts.get(textKey(input)) : undefined
        if (list === undefined || list.length === 0) continue
        if (found === undefined) found = list
        else (lists ??= [found]).push(list)
      }
      return lists ? merge(lists) : (found ?? EMPTY)
    },
  }
}
