import { ChatrailError } from '../../contract/errors.js'
import type { ChatDefinition, JsonObject, TurnTrace } from '../../index.js'
import { closestName } from '../../conversation/did-you-mean.js'
import { readCassette, writeCassette } from '../cassette.js'
import type { ConversationFile, ConversationSpec } from './file-parse.js'
import { isConversationFileError } from './file-error.js'
import type { ConversationFileIssue } from './file-error.js'
import { readConversationFile } from './file-parse.js'
import type { ReplayCheckReport } from './run-result.js'
import type { CoverageRun } from './coverage.js'
import { loadDefinition } from './definition-loader.js'
import type { ModuleImporter } from './definition-loader.js'
import { agentScript } from './agent-script.js'
import type { ConversationRun } from './run-result.js'
import { recordingAdapter } from '../recording-adapter.js'
import type { RecordingAdapter } from '../recording-adapter.js'
import { replayAdapter } from '../replay-adapter.js'
import type { ReplayAdapter } from '../replay-adapter.js'
import { formatReplayMismatch } from './replay-check.js'
import { runConversation } from './run-conversation.js'
import { describeStep } from './step.js'
import { scriptedAdapter } from '../scripted-adapter.js'
import type { ScriptedAdapter } from '../scripted-adapter.js'
import type { SourcePosition } from './source-position.js'
import { checkTurnExpectations } from './turn-expectations.js'
import type { ExpectationFailure } from './turn-expectations.js'

/** A failed expectation (or a conversation-level problem) placed in its file. */
export interface ConversationFailure extends Partial<ExpectationFailure> {
  /** 1-based turn, absent for conversation-level problems (unused agent replies, load errors). */
  turn?: number
  label?: string
  message: string
  line: number
  column: number
  /** The turn's traces, for the report's `trace:` line. */
  traces?: TurnTrace[]
}

export interface ConversationTurnReport {
  number: number
  label: string
  line: number
  passed: boolean
  reply: string
  traces: TurnTrace[]
  modelCalls: number
}

/** The outcome of one conversation of a file. */
export interface ConversationResult {
  file: string
  name: string
  line: number
  definitionId: string | undefined
  passed: boolean
  turns: ConversationTurnReport[]
  failures: ConversationFailure[]
  replayCheck?: ReplayCheckReport
}

/** The outcome of one file: its conversations, or the issues that kept it from running. */
export interface ConversationFileResult {
  file: string
  passed: boolean
  conversations: ConversationResult[]
  /** Present when the file itself is invalid or its definition cannot load. */
  issues?: ConversationFileIssue[]
  /** Things in the file that run but probably do not say what was meant (see `checkCut` in file-parse.ts). */
  warnings?: ConversationFileIssue[]
}

export interface RunFileOptions {
  replayCheck?: boolean
  /** Answer agentic turns with the definition's real adapter and (re)write each conversation's `cassette`. */
  record?: boolean
  importModule?: ModuleImporter
  /** Called with every run, for coverage. */
  onRun?: (definition: ChatDefinition<JsonObject>, run: CoverageRun) => void
}

/** Loads, runs and checks every conversation of one file. Never throws: problems are results. */
export async function runConversationFile(path: string, options: RunFileOptions = {}): Promise<ConversationFileResult> {
  let file: ConversationFile
  try {
    file = readConversationFile(path)
  } catch (error) {
    if (isConversationFileError(error)) return { file: error.file, passed: false, conversations: [], issues: error.issues }
    throw error
  }
  let definition: ChatDefinition<JsonObject>
  try {
    definition = (await loadDefinition(file.definition.module, file.definition.export, options.importModule)) as ChatDefinition<JsonObject>
  } catch (error) {
    const issue = issueAt(file, error, 'DEFINITION_LOAD_FAILED')
    return { file: file.file, passed: false, conversations: [], issues: [issue] }
  }
  const conversations: ConversationResult[] = []
  for (const spec of file.conversations) conversations.push(await runConversationSpec(definition, spec, options))
  return { file: file.file, passed: conversations.every((result) => result.passed), conversations, ...(file.warnings.length > 0 ? { warnings: file.warnings } : {}) }
}

function issueAt(file: ConversationFile, error: unknown, code: string): ConversationFileIssue {
  const message = error instanceof Error ? error.message : String(error)
  const hint = ChatrailError.isInstance(error) ? error.hint : undefined
  return { code: ChatrailError.isInstance(error) ? error.code : code, file: file.file, line: 1, column: 1, path: ['definition'], message, ...(hint === undefined ? {} : { hint }) }
}

/** Runs one conversation against a loaded definition and checks each turn's expectations. */
export async function runConversationSpec(definition: ChatDefinition<JsonObject>, spec: ConversationSpec, options: RunFileOptions = {}): Promise<ConversationResult> {
  const result = (failures: ConversationFailure[]): ConversationResult => ({ file: spec.file, name: spec.name, line: spec.at.line, definitionId: definition.id, passed: failures.length === 0, turns: [], failures })
  const states = Object.keys(definition.conversation.states)
  const startState = spec.start?.state
  if (startState !== undefined && !states.includes(startState)) {
    const close = closestName(startState, states)
    return result([{ message: `start.state "${startState}" is not a state of ${definition.id}${close === undefined ? '' : `; did you mean "${close}"?`} (states: ${states.join(', ')})`, ...(spec.startAt ?? spec.at) }])
  }
  const unknownRoutes = unknownRouteFailures(definition, spec)
  if (unknownRoutes.length > 0) return result(unknownRoutes)
  let adapter: RecordingAdapter | ReplayAdapter | ScriptedAdapter | undefined
  let recorder: RecordingAdapter | undefined
  try {
    if (options.record === true && spec.cassette !== undefined && definition.chat.adapter !== undefined) adapter = recorder = recordingAdapter(definition.chat.adapter)
    else if (spec.cassette !== undefined) adapter = replayAdapter(readCassette(spec.cassette))
    else if (spec.agent !== undefined) adapter = scriptedAdapter(agentScript(spec.agent), { strict: true })
  } catch (error) {
    return result([{ message: error instanceof Error ? error.message : String(error), ...spec.at }])
  }
  let run: ConversationRun
  try {
    run = await runConversation(definition, spec.turns.map((turn) => turn.step), {
      ...(adapter === undefined ? {} : { adapter }),
      // YAML maps parse to JSON values (the core schema has no dates or functions), as a context needs.
      ...(spec.start === undefined ? {} : { start: spec.start as { state?: string; context?: JsonObject } }),
      replayCheck: options.replayCheck === true,
    })
  } catch (error) {
    // The session refused to start (a start context that is not JSON, an invalid definition): a result, not a crash.
    const hint = ChatrailError.isInstance(error) && error.hint !== undefined ? ` (${error.hint})` : ''
    return result([{ message: `the conversation could not start: ${error instanceof Error ? error.message : String(error)}${hint}`, ...spec.at }])
  }
  options.onRun?.(definition, { startState: startState ?? definition.conversation.initial, traces: run.traces })
  if (recorder !== undefined && spec.cassette !== undefined) writeCassette(spec.cassette, recorder.cassette())
  const failures: ConversationFailure[] = []
  const turns: ConversationTurnReport[] = spec.turns.map((turnSpec, index) => {
    const turn = run.turns[index]
    if (turn === undefined) throw new Error(`runConversation returned no result for turn ${turnSpec.number}`)
    const turnFailures = checkTurnExpectations(turn, turnSpec.expect)
    for (const failure of turnFailures) {
      const at: SourcePosition = turnSpec.expectAt[failure.field] ?? turnSpec.at
      failures.push({ ...failure, turn: turn.number, label: turn.label, line: at.line, column: at.column, traces: turn.traces })
    }
    return { number: turn.number, label: turn.label, line: turnSpec.at.line, passed: turnFailures.length === 0, reply: turn.reply, traces: turn.traces, modelCalls: turn.adapterCalls.length }
  })
  if (spec.agent !== undefined && adapter !== undefined && 'calls' in adapter) failures.push(...agentScriptFailures(spec, adapter.calls.length))
  if (adapter !== undefined && 'unused' in adapter && adapter.unused().length > 0) {
    failures.push({ message: `cassette: ${adapter.unused().length} recorded interaction(s) were never requested; record the cassette again`, ...spec.at })
  }
  for (const mismatch of run.replayCheck?.mismatches ?? []) {
    const turnSpec = spec.turns[mismatch.turn - 1]
    failures.push({ turn: mismatch.turn, label: mismatch.label, message: `replay check: ${formatReplayMismatch(mismatch)}`, line: turnSpec?.at.line ?? spec.at.line, column: turnSpec?.at.column ?? spec.at.column })
  }
  // Turn failures in turn order, then what concerns the whole conversation.
  failures.sort((a, b) => (a.turn ?? Number.POSITIVE_INFINITY) - (b.turn ?? Number.POSITIVE_INFINITY))
  return { ...result(failures), turns, ...(run.replayCheck === undefined ? {} : { replayCheck: run.replayCheck }) }
}

/** A `route:` expectation naming a route the definition does not have can never pass: say so before running, with the likely name. */
function unknownRouteFailures(definition: ChatDefinition<JsonObject>, spec: ConversationSpec): ConversationFailure[] {
  const ids = definition.conversation.routes.map((route) => route.id)
  const known = new Set(ids)
  return spec.turns.flatMap((turn) => {
    const id = turn.expect.route
    if (typeof id !== 'string' || known.has(id)) return []
    const close = closestName(id, ids)
    const at = turn.expectAt.route ?? turn.at
    const message = `expect.route "${id}" is not a route of ${definition.id}${close === undefined ? '' : `; did you mean "${close}"?`} (routes: ${ids.length > 12 ? `${ids.slice(0, 12).join(', ')}, …` : ids.join(', ') || 'none'})`
    return [{ turn: turn.number, label: describeStep(turn.step), field: 'route' as const, expected: id, actual: null, message, line: at.line, column: at.column }]
  })
}

/** Scripted replies must be used exactly: one per agentic call, none left over (the assert-consumed rule). */
function agentScriptFailures(spec: ConversationSpec, calls: number): ConversationFailure[] {
  const replies = spec.agent?.length ?? 0
  if (calls > replies) {
    return [{ message: `agent: the conversation made ${calls} agentic call(s), but only ${replies} repl${replies === 1 ? 'y is' : 'ies are'} scripted; add a reply for each agentic turn`, ...spec.at }]
  }
  return (spec.agent ?? []).slice(calls).map((reply, offset) => {
    const at = spec.agentAt?.[calls + offset] ?? spec.at
    const text = typeof reply === 'string' ? reply : 'text' in reply ? reply.text : 'error' in reply ? `error ${reply.error}` : `${reply.chunks.length} chunks`
    return { message: `agent: reply #${calls + offset + 1} (${JSON.stringify(text)}) was never used: the conversation made ${calls} agentic call(s)`, line: at.line, column: at.column }
  })
}
