import { z } from 'zod'
import { streamChunkSchema } from '../../contract/schemas.js'

/**
 * The zod schemas of a `*.conv.yaml` file. Objects are strict so a misspelt key is an error with a
 * "did you mean", never a silently ignored expectation. Turns are validated one by one (see
 * `file-parse.ts`) because which schema applies depends on which step key a turn holds.
 */

const jsonObject = z.record(z.string(), z.unknown())

export const traceKindSchema = z.enum(['deterministic', 'agentic', 'repaired', 'fallback'])
/** Every `TurnTrace['outcome']` (src/conversation/trace.ts). */
export const traceOutcomeSchema = z.enum(['ok', 'error', 'aborted', 'refused', 'unavailable', 'timeout'])

export const expectationSchema = z.strictObject({
  /** The route that answered; `null` asserts that no route did. */
  route: z.string().min(1).nullable().optional(),
  kind: traceKindSchema.optional(),
  /** The trace outcome: `refused` (a re-prompt), `unavailable` (a stale UI event), `timeout`, … */
  outcome: traceOutcomeSchema.optional(),
  state: z.string().min(1).optional(),
  /** A partial match: every key given must deep-equal the session context's. */
  context: jsonObject.optional(),
  reply: z.string().optional(),
  /** A regular expression source (no slashes), tested against the reply. */
  replyMatches: z.string().optional(),
  modelCalls: z.number().int().min(0).optional(),
  replayed: z.boolean().optional(),
  /** `true`: the turn must fail; a string: its error message must contain it; `false` (the default): it must not fail. */
  error: z.union([z.boolean(), z.string()]).optional(),
})

const turnReference = z.strictObject({ turn: z.number().int().min(1) })
const flag = z.union([z.literal(true), z.null()]).transform(() => true as const)

export const stepSchemas = {
  user: z.strictObject({ user: z.string(), metadata: jsonObject.optional(), expect: expectationSchema.optional() }),
  event: z.strictObject({ event: z.string().min(1), label: z.string().optional(), expect: expectationSchema.optional() }),
  retry: z.strictObject({ retry: flag, expect: expectationSchema.optional() }),
  regenerate: z.strictObject({ regenerate: z.union([flag, turnReference]), expect: expectationSchema.optional() }),
  edit: z.strictObject({
    edit: z.strictObject({ turn: z.number().int().min(1), text: z.string() }),
    expect: expectationSchema.optional(),
  }),
  stop: z.strictObject({ stop: flag, expect: expectationSchema.optional() }),
} as const

/** One scripted agent reply: plain text, explicit chunks, or a failed call. */
export const agentReplySchema = z.union([
  z.string(),
  z.strictObject({ text: z.string() }),
  z.strictObject({ chunks: z.array(streamChunkSchema).min(1) }),
  z.strictObject({ error: z.string() }),
])

export const startSchema = z.strictObject({ state: z.string().min(1).optional(), context: jsonObject.optional() })

export const definitionRefSchema = z.strictObject({
  /** Path of the module that exports the definition, relative to the YAML file. */
  module: z.string().min(1),
  /** The export's name; `default` when left out. */
  export: z.string().min(1).optional(),
})

const conversationFields = {
  start: startSchema.optional(),
  agent: z.array(agentReplySchema).optional(),
  /** Path of a JSON cassette (`recordingAdapter`) that answers agentic turns, relative to the YAML file. */
  cassette: z.string().min(1).optional(),
  turns: z.array(z.unknown()).min(1),
}

export const conversationSchema = z.strictObject({ name: z.string().min(1), ...conversationFields })

export const conversationFileSchema = z.strictObject({
  definition: definitionRefSchema,
  name: z.string().min(1).optional(),
  start: conversationFields.start,
  agent: conversationFields.agent,
  cassette: conversationFields.cassette,
  turns: conversationFields.turns.optional(),
  conversations: z.array(conversationSchema).min(1).optional(),
})

export type AgentReplySpec = z.output<typeof agentReplySchema>
export type TurnExpectation = z.output<typeof expectationSchema>
export type StartSpec = z.output<typeof startSchema>

/** The keys allowed where a path ends, for "did you mean" hints on unknown keys. */
export function allowedKeysAt(path: readonly PropertyKey[], turnKeys: readonly string[] | undefined): readonly string[] {
  const last = path[path.length - 1]
  const parent = path[path.length - 2]
  if (path.length === 0) return Object.keys(conversationFileSchema.shape)
  if (typeof last === 'number' && parent === 'turns') return turnKeys ?? Object.keys(stepSchemas)
  if (typeof last === 'number' && parent === 'conversations') return Object.keys(conversationSchema.shape)
  if (last === 'definition') return Object.keys(definitionRefSchema.shape)
  if (last === 'start') return Object.keys(startSchema.shape)
  if (last === 'expect') return Object.keys(expectationSchema.shape)
  if (last === 'edit') return ['turn', 'text']
  if (last === 'regenerate') return ['turn']
  return []
}
