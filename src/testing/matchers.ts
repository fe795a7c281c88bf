import type { TurnKind, TurnOutcome } from '../index.js'
import { contextDifferences, formatContextDifferences, show } from './context-match.js'
import { isTurnResult, modelCallSubject, snapshotSubject, traceSection, traceSubject } from './matcher-subject.js'
import { explainMiss } from './explain-miss.js'
import type { Subject, SubjectResult } from './matcher-subject.js'
import { formatTraceLine } from './trace-line.js'

/**
 * The chatrail matchers as plain functions in the `expect.extend` shape. They need no test
 * runner: `this` only has to say whether the assertion is negated. `import 'chatrail/testing/vitest'`
 * registers them (plus `toMatchTraceSnapshot`); with another runner, pass `chatrailMatchers` to its
 * `expect.extend`. Every failure message names the turn, shows its trace and the difference.
 */

export interface MatcherContextLike { isNot?: boolean }
export interface MatcherOutcome { pass: boolean; message: () => string; actual?: unknown; expected?: unknown }

type Check<T> = (value: T) => { pass: boolean; actual?: unknown; expected?: unknown; says: string; saysNot: string }

function judge<T>(context: MatcherContextLike, found: SubjectResult<T>, check: Check<T>): MatcherOutcome {
  if (!found.ok) return { pass: false, message: () => found.message }
  const subject: Subject<T> = found.subject
  const verdict = check(subject.value)
  return {
    pass: verdict.pass,
    actual: verdict.actual,
    expected: verdict.expected,
    message: () => `${context.isNot === true ? verdict.saysNot : verdict.says}${traceSection(subject.traces)}`,
  }
}

function noTrace(label: string): string {
  return `${label} produced no trace (did the step dispatch a turn?)`
}

export function toRoute(this: MatcherContextLike, received: unknown, routeId: string): MatcherOutcome {
  const found = traceSubject(received)
  return judge(this, found, (trace) => {
    const label = found.ok ? found.subject.label : ''
    const actual = trace?.routeId
    const answered = trace === undefined ? noTrace(label) : actual === undefined ? `no route answered it (${trace.kind})` : `route "${actual}" answered it`
    const explanation = found.ok && isTurnResult(received) && received.explanation ? `\n\n${explainMiss(received.explanation)}` : ''
    return {
      pass: actual === routeId,
      actual: actual ?? null,
      expected: routeId,
      says: `expected ${label} to be answered by route "${routeId}", but ${answered}${explanation}`,
      saysNot: `expected ${label} not to be answered by route "${routeId}", but it was`,
    }
  })
}

export function toBeKind(this: MatcherContextLike, received: unknown, kind: TurnKind): MatcherOutcome {
  const found = traceSubject(received)
  return judge(this, found, (trace) => {
    const label = found.ok ? found.subject.label : ''
    return {
      pass: trace?.kind === kind,
      actual: trace?.kind ?? null,
      expected: kind,
      says: trace === undefined ? `expected ${label} to be ${kind}, but ${noTrace(label)}` : `expected ${label} to be ${kind}, but it was ${trace.kind}`,
      saysNot: `expected ${label} not to be ${kind}, but it was`,
    }
  })
}

export function toHaveOutcome(this: MatcherContextLike, received: unknown, outcome: TurnOutcome): MatcherOutcome {
  const found = traceSubject(received)
  return judge(this, found, (trace) => {
    const label = found.ok ? found.subject.label : ''
    return {
      pass: trace?.outcome === outcome,
      actual: trace?.outcome ?? null,
      expected: outcome,
      says: trace === undefined ? `expected ${label} to end ${outcome}, but ${noTrace(label)}` : `expected ${label} to end ${outcome}, but it ended ${trace.outcome}`,
      saysNot: `expected ${label} not to end ${outcome}, but it did`,
    }
  })
}

export function toTransition(this: MatcherContextLike, received: unknown, from: string, to: string): MatcherOutcome {
  const found = traceSubject(received)
  return judge(this, found, (trace) => {
    const label = found.ok ? found.subject.label : ''
    const pass = trace?.fromState === from && trace.toState === to
    const differences: string[] = []
    if (trace !== undefined && trace.fromState !== from) differences.push(`  from: expected "${from}", received "${trace.fromState}"`)
    if (trace !== undefined && trace.toState !== to) differences.push(`  to:   expected "${to}", received "${trace.toState}"`)
    return {
      pass,
      actual: trace === undefined ? null : { from: trace.fromState, to: trace.toState },
      expected: { from, to },
      says: trace === undefined ? `expected ${label} to go ${from} → ${to}, but ${noTrace(label)}` : `expected ${label} to go ${from} → ${to}, but it went ${trace.fromState} → ${trace.toState}\n${differences.join('\n')}`,
      saysNot: `expected ${label} not to go ${from} → ${to}, but it did`,
    }
  })
}

export function toBeReplayed(this: MatcherContextLike, received: unknown): MatcherOutcome {
  const found = traceSubject(received)
  return judge(this, found, (trace) => {
    const label = found.ok ? found.subject.label : ''
    return {
      pass: trace?.replayed === true,
      actual: trace?.replayed ?? null,
      expected: true,
      says: trace === undefined ? `expected ${label} to be replayed, but ${noTrace(label)}` : `expected ${label} to be replayed from the decision cache, but it was decided afresh (${formatTraceLine(trace)})`,
      saysNot: `expected ${label} to be decided afresh, but it was replayed from the decision cache`,
    }
  })
}

export function toBeInState(this: MatcherContextLike, received: unknown, state: string): MatcherOutcome {
  const found = snapshotSubject(received)
  return judge(this, found, (snapshot) => {
    const label = found.ok ? found.subject.label : ''
    return {
      pass: snapshot.state === state,
      actual: snapshot.state,
      expected: state,
      says: `expected ${label} to be in state "${state}", but it is in "${snapshot.state}"`,
      saysNot: `expected ${label} not to be in state "${state}", but it is`,
    }
  })
}

export function toHaveContext(this: MatcherContextLike, received: unknown, partial: Record<string, unknown>): MatcherOutcome {
  const found = snapshotSubject(received)
  return judge(this, found, (snapshot) => {
    const label = found.ok ? found.subject.label : ''
    const differences = contextDifferences(snapshot.context, partial)
    return {
      pass: differences.length === 0,
      actual: snapshot.context,
      expected: partial,
      says: `expected ${label} to have context ${show(partial)}, but it differs:\n${formatContextDifferences(differences)}\n\ncontext: ${show(snapshot.context)}`,
      saysNot: `expected ${label} not to have context ${show(partial)}, but it does`,
    }
  })
}

export function toMakeModelCalls(this: MatcherContextLike, received: unknown, count: number): MatcherOutcome {
  const found = modelCallSubject(received)
  return judge(this, found, (calls) => {
    const label = found.ok ? found.subject.label : ''
    return {
      pass: calls === count,
      actual: calls,
      expected: count,
      says: `expected ${label} to make ${count} model call${count === 1 ? '' : 's'}, but it made ${calls}`,
      saysNot: `expected ${label} not to make ${count} model call${count === 1 ? '' : 's'}, but it did`,
    }
  })
}

/** Every runner-independent matcher, ready for `expect.extend(chatrailMatchers)`. */
export const chatrailMatchers = { toRoute, toBeKind, toHaveOutcome, toTransition, toBeInState, toHaveContext, toMakeModelCalls, toBeReplayed }
