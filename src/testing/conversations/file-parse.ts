import { readFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { LineCounter, isScalar, parseDocument } from 'yaml'
import type { Document } from 'yaml'
import type { z } from 'zod'
import { didYouMean } from '../../conversation/did-you-mean.js'
import { ConversationFileError } from './file-error.js'
import type { ConversationFileIssue } from './file-error.js'
import { allowedKeysAt, conversationFileSchema, stepSchemas } from './file-schema.js'
import type { AgentReplySpec, StartSpec, TurnExpectation, conversationSchema } from './file-schema.js'
import { conversationStepKinds } from './step.js'
import type { ConversationStep, ConversationStepKind } from './step.js'
import { positionOf } from './source-position.js'
import type { PositionTarget, SourcePosition } from './source-position.js'
import { checkConversationTurns } from './step-checks.js'

/** A parsed, validated `*.conv.yaml` file. Paths inside it are absolute. */
export interface ConversationFile {
  file: string
  /** `module` is an absolute path for relative specifiers, a bare package specifier otherwise. */
  definition: { module: string; export: string }
  conversations: ConversationSpec[]
  /** Things that parse but probably do not say what was meant (a text cut by ` #`). */
  warnings: ConversationFileIssue[]
}

export interface ConversationSpec {
  name: string
  file: string
  at: SourcePosition
  start?: StartSpec
  /** Where `start.state` was written. */
  startAt?: SourcePosition
  agent?: AgentReplySpec[]
  /** Where each agent reply was written (the file level when the conversation inherits them). */
  agentAt?: SourcePosition[]
  cassette?: string
  turns: ConversationTurnSpec[]
}

export interface ConversationTurnSpec {
  /** 1-based, as reports print it and as `edit.turn` / `regenerate.turn` reference it. */
  number: number
  step: ConversationStep
  expect: TurnExpectation
  at: SourcePosition
  /** Where each expectation was written, so a failure can point at its line. */
  expectAt: Partial<Record<keyof TurnExpectation, SourcePosition>>
}

/** Reads and parses a conversation file; throws `ConversationFileError` naming every problem. */
export function readConversationFile(file: string): ConversationFile {
  const absolute = resolve(file)
  let source: string
  try {
    source = readFileSync(absolute, 'utf8')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ConversationFileError([
      { code: 'FILE_UNREADABLE', file: absolute, line: 1, column: 1, path: [], message: `cannot read the file: ${reason}`, hint: 'Check the path passed to chatrail test / defineConversationTests.' },
    ])
  }
  return parseConversationFile(source, absolute)
}

/**
 * Parses conversation-file text. Pure apart from path resolution against `file`'s directory.
 * Throws `ConversationFileError` with every issue found (YAML syntax first, then schema, then
 * cross-turn references), each at its line and column.
 */
export function parseConversationFile(source: string, file: string): ConversationFile {
  const lineCounter = new LineCounter()
  const document = parseDocument(source, { lineCounter, prettyErrors: true })
  const issues = new IssueList(file, document, lineCounter)
  for (const error of document.errors) {
    const position = error.linePos?.[0]
    issues.pushAt({ line: position?.line ?? 1, column: position?.col ?? 1 }, 'YAML_SYNTAX', [], firstLine(error.message), 'Fix the YAML syntax at this place.')
  }
  issues.throwIfAny()

  const parsed = conversationFileSchema.safeParse(document.toJS())
  if (!parsed.success) {
    issues.addZod(parsed.error.issues, [])
    issues.throwIfAny()
    throw new Error('unreachable: zod failed without issues')
  }
  const data = parsed.data
  const directory = dirname(file)
  const single = data.turns !== undefined
  if (single === (data.conversations !== undefined)) {
    issues.push('TURNS_OR_CONVERSATIONS', [], 'a conversation file needs either `turns` (one conversation) or `conversations` (a list), not both and not neither', 'Put the turns under `turns:`, or several `{ name, turns }` under `conversations:`.')
  }
  if (single && data.turns !== undefined) {
    // With `turns`, the file is one conversation named by `name` or by the file name.
    const name = data.name ?? basename(file).replace(/\.conv\.ya?ml$/, '')
    const conversations = [buildConversation(issues, [], { name, start: data.start, startPath: ['start'], agent: data.agent, agentPath: ['agent'], cassette: data.cassette, turns: data.turns }, directory)]
    issues.throwIfAny()
    return { file, definition: resolveDefinition(data.definition, directory), conversations, warnings: issues.warnings }
  }
  if (data.name !== undefined) issues.push('NAME_WITH_CONVERSATIONS', ['name'], '`name` names the single conversation of a `turns` file; with `conversations` give each one its own name', 'Move `name` into each entry of `conversations`.')
  const seen = new Set<string>()
  const conversations = (data.conversations ?? []).map((entry, index) => {
    if (seen.has(entry.name)) issues.push('DUPLICATE_NAME', ['conversations', index, 'name'], `two conversations are named "${entry.name}"`, 'Give each conversation a unique name: it becomes the test name.')
    seen.add(entry.name)
    // File-level start/agent/cassette are defaults each conversation may override.
    const agentPath = entry.agent === undefined ? ['agent'] : ['conversations', index, 'agent']
    const startPath = entry.start === undefined ? ['start'] : ['conversations', index, 'start']
    const merged = { ...entry, start: entry.start ?? data.start, startPath, agent: entry.agent ?? data.agent, agentPath, cassette: entry.cassette ?? data.cassette }
    return buildConversation(issues, ['conversations', index], merged, directory)
  })
  issues.throwIfAny()
  return { file, definition: resolveDefinition(data.definition, directory), conversations, warnings: issues.warnings }
}

type ConversationInput = Omit<z.output<typeof conversationSchema>, 'start' | 'agent' | 'cassette'> & {
  start?: StartSpec | undefined
  startPath: (string | number)[]
  agent?: AgentReplySpec[] | undefined
  agentPath: (string | number)[]
  cassette?: string | undefined
}

function buildConversation(issues: IssueList, base: (string | number)[], input: ConversationInput, directory: string): ConversationSpec {
  if (input.agent !== undefined && input.cassette !== undefined) {
    issues.push('AGENT_AND_CASSETTE', [...base, 'cassette'], 'a conversation takes scripted `agent` replies or a `cassette`, not both', 'Keep `agent:` for hand-written replies or `cassette:` for a recording.')
  }
  const turns: ConversationTurnSpec[] = []
  input.turns.forEach((raw, index) => {
    const turn = parseTurn(issues, [...base, 'turns', index], raw, index + 1)
    if (turn !== undefined) turns.push(turn)
  })
  // Cross-turn references are checked only when every turn parsed, so one typo does not cascade.
  const problems = turns.length === input.turns.length ? checkConversationTurns(turns) : []
  for (const problem of problems) {
    issues.push(problem.code, [...base, 'turns', problem.turn - 1, ...problem.path], problem.message, problem.hint)
  }
  return {
    name: input.name,
    file: issues.file,
    at: issues.positionOf(base.length === 0 ? [] : base),
    ...(input.start === undefined ? {} : { start: input.start, startAt: issues.positionOf([...input.startPath, 'state']) }),
    ...(input.agent === undefined ? {} : { agent: input.agent, agentAt: input.agent.map((_, index) => issues.positionOf([...input.agentPath, index])) }),
    ...(input.cassette === undefined ? {} : { cassette: resolve(directory, input.cassette) }),
    turns,
  }
}

const bareSteps: Record<string, ConversationStep> = { retry: { retry: true }, regenerate: { regenerate: true }, stop: { stop: true } }

function parseTurn(issues: IssueList, path: (string | number)[], raw: unknown, number: number): ConversationTurnSpec | undefined {
  const at = issues.positionOf(path)
  if (typeof raw === 'string' && bareSteps[raw] !== undefined) return { number, step: bareSteps[raw], expect: {}, at, expectAt: {} }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    issues.push('TURN_SHAPE', path, `turn ${number} must be a mapping such as \`user: hello\` (or the bare words retry, regenerate, stop)`, 'Write each turn as `- user: text`, `- event: name`, `- retry`, `- regenerate`, `- edit: { turn: 1, text: ... }` or `- stop`.')
    return undefined
  }
  const kinds = conversationStepKinds.filter((kind) => kind in raw)
  const [kind] = kinds
  if (kind === undefined || kinds.length > 1) {
    const found = kinds.length === 0 ? `none (keys: ${Object.keys(raw).join(', ') || 'none'})` : kinds.join(' and ')
    const guess = kinds.length === 0 ? Object.keys(raw).map((key) => didYouMean(key, conversationStepKinds)).find((text) => text !== '') ?? '' : ''
    issues.push('TURN_KIND', path, `turn ${number} needs exactly one of ${conversationStepKinds.join(', ')}; found ${found}.${guess}`, 'Split a turn with two steps into two turns.')
    return undefined
  }
  const schema = stepSchemas[kind]
  const result = schema.safeParse(raw)
  if (!result.success) {
    issues.addZod(result.error.issues, path, Object.keys(schema.shape))
    return undefined
  }
  const { expect = {}, ...stepFields } = result.data
  if (kind === 'user') issues.checkCut([...path, 'user'])
  if (kind === 'edit') issues.checkCut([...path, 'edit', 'text'])
  const expectAt: ConversationTurnSpec['expectAt'] = {}
  for (const key of Object.keys(expect) as (keyof TurnExpectation)[]) expectAt[key] = issues.positionOf([...path, 'expect', key])
  return { number, step: toStep(kind, stepFields), expect, at, expectAt }
}

function toStep(kind: ConversationStepKind, fields: Record<string, unknown>): ConversationStep {
  // The schemas above already checked each shape; this only narrows the parsed object.
  return (kind === 'user' && fields.metadata === undefined ? { user: fields.user } : fields) as ConversationStep
}

function resolveDefinition(ref: { module: string; export?: string | undefined }, directory: string): ConversationFile['definition'] {
  const relative = ref.module.startsWith('.') || ref.module.startsWith('/')
  return { module: relative ? resolve(directory, ref.module) : ref.module, export: ref.export ?? 'default' }
}

/** The YAML library's first message line, without its own ` at line N, column M:` suffix. */
function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).replace(/ at line \d+, column \d+:?$/, '')
}

const unionHints: Record<string, string> = {
  agent: 'An agent reply is a string, `{ text }`, `{ chunks: [...] }` or `{ error }`.',
  regenerate: 'Write `regenerate: true` (the last reply) or `regenerate: { turn: 2 }`.',
  retry: 'Write `retry: true` or the bare word `- retry`.',
  stop: 'Write `stop: true` or the bare word `- stop`.',
}

/** Collects issues with their positions; the file's one place that turns paths into lines. */
class IssueList {
  private readonly issues: ConversationFileIssue[] = []
  readonly warnings: ConversationFileIssue[] = []

  constructor(
    readonly file: string,
    private readonly document: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  positionOf(path: readonly PropertyKey[], target: PositionTarget = 'value'): SourcePosition {
    return positionOf(this.document, this.lineCounter, path, target)
  }

  push(code: string, path: (string | number)[], message: string, hint?: string, target: PositionTarget = 'value'): void {
    this.pushAt(this.positionOf(path, target), code, path, message, hint)
  }

  pushAt(at: SourcePosition, code: string, path: (string | number)[], message: string, hint?: string): void {
    this.issues.push({ code, file: this.file, line: at.line, column: at.column, path, message, ...(hint === undefined ? {} : { hint }) })
  }

  addZod(zodIssues: readonly z.core.$ZodIssue[], base: (string | number)[], turnKeys?: readonly string[]): void {
    for (const issue of zodIssues) {
      const path = [...base, ...issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol')]
      if (issue.code === 'unrecognized_keys') {
        const allowed = allowedKeysAt(path, turnKeys)
        for (const key of issue.keys) {
          // A "key" with spaces is almost always the tail of a text value cut at a comma in `{ … }`.
          const split = /\s/.test(key.trim()) ? ' Inside `{ … }` a comma ends the value: quote text that holds commas (reply: "a, b").' : ''
          const hint = `${didYouMean(key, allowed).trim()} Allowed here: ${allowed.join(', ')}.${split}`.trim()
          this.push('UNKNOWN_KEY', [...path, key], `${dotPath(path)}: unknown key "${key}"`, hint, 'key')
        }
        continue
      }
      const hintKey = [...path].reverse().find((segment): segment is string => typeof segment === 'string' && segment in unionHints)
      const hint = issue.code === 'invalid_union' && hintKey !== undefined ? unionHints[hintKey] : undefined
      this.push(issue.code.toUpperCase(), path, `${dotPath(path)}: ${issue.message}`, hint)
    }
  }

  /**
   * Warns when the plain (unquoted) text at `path` ended at ` #`: YAML read the rest as a comment,
   * so `user: my card ends #1234` sends "my card ends". A comment with a space after `#`
   * (`user: /start  # begin`) is taken as meant.
   */
  checkCut(path: (string | number)[]): void {
    const node = this.document.getIn(path, true)
    if (!isScalar(node) || node.type !== 'PLAIN' || typeof node.comment !== 'string' || /^\s/.test(node.comment)) return
    const text = `${String(node.value)} #${node.comment}`
    this.warnings.push({
      code: 'TEXT_CUT_BY_COMMENT',
      file: this.file,
      ...this.positionOf(path),
      path,
      message: `${dotPath(path)}: the text ends at " #": YAML reads the rest as a comment, so this sends ${JSON.stringify(String(node.value))}`,
      hint: `Quote the text to keep the "#": ${String(path.at(-1))}: ${JSON.stringify(text)}. (A comment written "# …", with a space, is taken as meant.)`,
    })
  }

  throwIfAny(): void {
    const sorted = [...this.issues].sort((a, b) => a.line - b.line || a.column - b.column)
    const [first, ...rest] = sorted
    if (first !== undefined) throw new ConversationFileError([first, ...rest])
  }
}

/** `turns[2].expect.route`, or `(file)` for the root. */
export function dotPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(file)'
  return path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('')
}
