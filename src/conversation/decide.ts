import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import { isPromise } from './is-promise.js'
import type { JsonObject } from './json.js'
import { assignContext, step, type Machine, type MachineState } from './machine.js'
import type { RouteIndex } from './route-index.js'
import { normalizeOutput } from './route-output.js'
import { ChatrailRouteError } from './route-error.js'
import type { Route, RouteContext, RouteMatch } from './routes.js'
import { uiEventOf } from './ui-events.js'

/**
 * Decide: which route answers a user message. Routes are tried in declaration order; a route is
 * eligible when its `states` include the current state, the current state declares its event,
 * it matches, and its guard passes; the first eligible route fires. Firing asks the machine for
 * the transition first (a refusal fails the route before its response runs), then runs the
 * response. Nothing here changes state: the result is data the session applies.
 */

/** What route callbacks see of this turn (`match` is added for pattern routes). */
export type TurnContext<Ctx extends JsonObject> = Omit<RouteContext<Ctx>, 'match'>

/** The turn as route callbacks (and the fallback answer) see it; `message` is the last user message. */
export function turnContext<Ctx extends JsonObject>(
  message: Message | undefined,
  before: MachineState<Ctx>,
  history: readonly Message[],
  sessionId: string,
  turnId: string,
): TurnContext<Ctx> {
  return {
    input: message?.content ?? '',
    uiEvent: message && uiEventOf(message),
    state: before.state,
    context: before.context,
    history,
    sessionId,
    messageId: message?.id,
    turnId,
  }
}

export type Resolution<Ctx extends JsonObject> =
  | { readonly type: 'match'; readonly route: Route<Ctx>; readonly after: MachineState<Ctx>; readonly assign: Partial<Ctx> | undefined; readonly chunks: readonly StreamChunk[] }
  | { readonly type: 'failed'; readonly route: Route<Ctx>; readonly error: ChatrailRouteError; readonly reason: string }
  | { readonly type: 'miss' }

const MISS = Object.freeze({ type: 'miss' as const })

const PHRASES: Record<string, string> = {
  'match-threw': 'its match function threw',
  'guard-threw': 'its guard threw',
  'response-threw': 'its response threw',
  'pattern-assign-threw': 'its assign function threw',
  'invalid-output': 'its response returned something other than a string or { text, chunks, assign }',
  'assign-not-json': 'its assign is not JSON',
}

/** Why the machine refused a route's transition, as the route error says it. */
const REFUSALS: Record<string, string> = {
  'guard-refused': 'guard returned false',
  'guard-threw': 'guard threw',
  'undeclared-event': 'event not declared',
}

function failed<Ctx extends JsonObject>(route: Route<Ctx>, reason: string, cause?: unknown, phrase = PHRASES[reason] ?? reason): Resolution<Ctx> {
  const error = new ChatrailRouteError({ routeId: route.id, message: `Route "${route.id}" failed: ${phrase}.`, cause })
  return { type: 'failed', route, error, reason }
}

function matchOf(result: RegExpExecArray): RouteMatch {
  const groups: Record<string, string> = {}
  for (const [name, value] of Object.entries(result.groups ?? {})) if (value !== undefined) groups[name] = value
  return Object.freeze({ value: result[0], index: result.index, groups: Object.freeze(groups) })
}

/**
 * Resolves one user message (`ctx`, decided from `before`) against the route table. Sync when every
 * callback it runs is. The steps are closures over this one resolution: a scan resumes after an
 * async `match` or a refused guard from where it stopped.
 */
export function resolveRoutes<Ctx extends JsonObject>(
  machine: Machine<Ctx>,
  index: RouteIndex<Ctx>,
  ctx: TurnContext<Ctx>,
  before: MachineState<Ctx>,
): Resolution<Ctx> | Promise<Resolution<Ctx>> {
  const candidates = index.candidates(ctx.input, ctx.uiEvent)
  if (candidates.length === 0) return MISS
  const state = before.state
  const declared = machine.states.get(state)?.transitions

  function scan(from: number): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    for (let c = from; c < candidates.length; c++) {
      const position = candidates[c] as number
      const route = index.routes[position] as Route<Ctx>
      const states = index.stateSets[position]
      if (states && !states.has(state)) continue
      if (!declared?.has(route.event)) continue
      if (route.kind === 'pattern') {
        const result = route.pattern.exec(ctx.input)
        if (!result) continue
        return afterMatch(route, { ...ctx, match: matchOf(result) }, c + 1)
      }
      if (route.kind === 'custom') {
        let matched: boolean | Promise<boolean>
        try {
          matched = route.match(ctx.input, ctx)
        } catch (error) {
          return failed(route, 'match-threw', error)
        }
        if (isPromise<boolean>(matched)) {
          return matched.then(
            (ok) => (ok === true ? afterMatch(route, ctx, c + 1) : scan(c + 1)),
            (error: unknown) => failed(route, 'match-threw', error),
          )
        }
        if (matched !== true) continue
      }
      return afterMatch(route, ctx, c + 1)
    }
    return MISS
  }

  function afterMatch(route: Route<Ctx>, routeCtx: RouteContext<Ctx>, next: number): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    if (route.guard) {
      let allowed: boolean
      try {
        allowed = route.guard(routeCtx)
      } catch (error) {
        return failed(route, 'guard-threw', error)
      }
      if (allowed !== true) return scan(next)
    }
    return fire(route, routeCtx)
  }

  function fire(route: Route<Ctx>, routeCtx: RouteContext<Ctx>): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    const [next, effects] = step(machine, before, route.event)
    const refusal = effects[0]
    if (refusal?.type === 'refuse') {
      return failed(route, `transition-refused:${refusal.reason}`, refusal.error, `the machine refused the transition (${REFUSALS[refusal.reason] ?? refusal.reason})`)
    }
    let patternAssign: Partial<Ctx> | undefined
    if (route.kind === 'pattern' && route.assign !== undefined && routeCtx.match) {
      try {
        patternAssign = route.assign === true ? (routeCtx.match.groups as Partial<Ctx>) : route.assign(routeCtx.match.groups, routeCtx)
      } catch (error) {
        return failed(route, 'pattern-assign-threw', error)
      }
    }
    const finish = (result: unknown): Resolution<Ctx> => {
      // The output is the route's code too (getters, proxies): read it once, here, guarded.
      let output: ReturnType<typeof normalizeOutput<Ctx>>
      try {
        output = normalizeOutput<Ctx>(result)
      } catch (error) {
        return failed(route, 'response-threw', error)
      }
      if (!output) return failed(route, 'invalid-output')
      const assign: Partial<Ctx> | undefined = patternAssign || output.assign ? ({ ...patternAssign, ...output.assign } as Partial<Ctx>) : undefined
      const context = assignContext(next.context, assign)
      if (context === undefined) return failed(route, 'assign-not-json')
      const after = context === next.context ? next : Object.freeze({ state: next.state, context })
      return { type: 'match', route, after, assign, chunks: output.chunks }
    }
    const response = route.response
    if (typeof response !== 'function') return finish(response)
    let result: unknown
    try {
      result = response(routeCtx.input, routeCtx)
    } catch (error) {
      return failed(route, 'response-threw', error)
    }
    return isPromise(result) ? result.then(finish, (error: unknown) => failed(route, 'response-threw', error)) : finish(result)
  }

  return scan(0)
}
