import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import { historyOf } from '../contract/history-view.js'
import type { Message } from '../contract/message.js'
import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import { uiEventOf } from '../conversation/ui-events.js'
import type { StoredConversation } from '../store/conversation-store.js'
import { runConversation } from '../testing/conversations/run-conversation.js'
import type { ConversationStep } from '../testing/conversations/step.js'
import { agentScript } from '../testing/conversations/agent-script.js'
import type { AgentReplySpec } from '../testing/conversations/file-schema.js'
import { scriptedAdapter, type ScriptedReply } from '../testing/scripted-adapter.js'
import type { ConversationExport } from './devtools-api.js'
import { redactedSteps, type StoredTurn } from './redact.js'
import { walkConversation } from './turn-walk.js'
import { compileMachine } from '../conversation/machine.js'

/**
 * A stored conversation as a `.conv.yaml` file of the testing kit that passes `chatrail test` on
 * the definition it is exported with: one `user:` (or `event:`) step per turn, each expecting the
 * route, kind, outcome, state and reply that definition gives it, and the agent's stored answers
 * as the file's scripted `agent:` replies (in the order the run asks for them; a definition without
 * an agent has its fallback answer, in the export's run as in the file's). The expectations
 * come from running the steps once through the testing kit's own runner (`runConversation`) with
 * those replies, so the file says what `chatrail test` will find, turn for turn, and a turn today's
 * definition decides differently from the stored one is listed in `changedTurns`. That run runs
 * the routes' responses, as `chatrail test` does; it stores nothing.
 *
 * Not carried over: retries, edits and stops (the file replays the history as it is stored), tool
 * calls and reasoning of an agentic answer (its text is the scripted reply), and a failed agent
 * call stands as a scripted `{ error }` reply.
 */

export interface ExportOptions {
  /** The `definition:` line: the module (relative to where the file will live) and its export. */
  readonly module: { readonly module: string; readonly export?: string }
  /** Replace user texts (and agent replies) with placeholders that decide the same way (redact.ts). */
  readonly redact?: boolean
}

function storedTurns(messages: readonly Message[]): StoredTurn[] {
  const turns: StoredTurn[] = []
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message
    if (message.role !== 'user') continue
    const answers: Message[] = []
    for (let j = i + 1; j < messages.length && messages[j]?.role !== 'user'; j++) answers.push(messages[j] as Message)
    const answer = answers.find((candidate) => candidate.role === 'assistant')
    const code = (answer?.metadata as { error?: { code?: unknown } } | undefined)?.error?.code
    const uiEvent = uiEventOf(message)
    turns.push({
      text: message.content,
      ...(uiEvent === undefined ? {} : { uiEvent }),
      reply: answer === undefined ? '' : answer.status === 'error' || typeof code === 'string' ? { error: typeof code === 'string' ? code : 'AGENT_ERROR' } : answer.content,
    })
  }
  return turns
}

function userCount(request: AdapterRequest): number {
  const history = historyOf(request)
  let count = 0
  for (let i = 0; i < history.length; i++) if (history.at(i)?.role === 'user') count += 1
  return count
}

/**
 * An agent that answers each turn with that turn's stored answer, played exactly as the file's
 * `agent:` replies will be (agentScript), and keeps what it answered, in call order.
 */
function storedAgent(replies: readonly AgentReplySpec[]): { adapter: AdapterFactory; used: AgentReplySpec[] } {
  const used: AgentReplySpec[] = []
  const adapter = scriptedAdapter([
    (request: AdapterRequest): ScriptedReply => {
      const reply = replies[userCount(request) - 1] ?? ''
      used.push(reply)
      const [play] = agentScript([reply]) as [(request: AdapterRequest, call: number) => ScriptedReply]
      return play(request, used.length - 1)
    },
  ])
  return { adapter, used }
}

const q = (value: string): string => JSON.stringify(value)

function replyLine(reply: AgentReplySpec): string {
  if (typeof reply === 'string') return `  - ${q(reply)}`
  if ('error' in reply) return `  - { error: ${q(reply.error)} }`
  if ('text' in reply) return `  - ${q(reply.text)}`
  return `  - { chunks: ${JSON.stringify(reply.chunks)} }`
}

function stepLine(step: ConversationStep): string {
  if ('event' in step) return `  - event: ${q(step.event)}${step.label === undefined ? '' : `\n    label: ${q(step.label)}`}`
  if ('user' in step) return `  - user: ${q(step.user)}`
  throw new TypeError('export: only user and event steps are exported')
}

export async function exportConversation<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, stored: StoredConversation, options: ExportOptions): Promise<ConversationExport> {
  const turns = storedTurns(stored.messages)
  const redacted = options.redact === true ? await redactedSteps(definition, turns, stored.conversationId) : undefined
  const steps: ConversationStep[] = redacted?.steps ?? turns.map((turn) => (turn.uiEvent === undefined ? { user: turn.text } : { event: turn.uiEvent, label: turn.text }))
  const replies = redacted?.replies ?? turns.map((turn) => turn.reply)
  // a definition without an agent answered misses with its fallback, and the file's run will too
  const agent = definition.chat.adapter === undefined ? undefined : storedAgent(replies)
  const run = await runConversation(definition as ChatDefinition<JsonObject>, steps, { ...(agent === undefined ? {} : { adapter: agent.adapter }), sessionId: stored.conversationId })
  run.session.dispose()

  // the stored decisions, walked through this definition, to say which turns it now decides differently
  const walked = walkConversation(compileMachine(definition.conversation), stored.messages)
  const changedTurns: number[] = []
  const lines: string[] = []
  for (const [index, turn] of run.turns.entries()) {
    const trace = turn.trace
    const before = walked.turns[index]
    // a failed or unanswered turn stored no decision to compare with
    if (before && before.kind !== 'pending' && before.kind !== 'failed' && ((trace?.routeId ?? null) !== before.routeId || turn.snapshot.state !== before.toState)) changedTurns.push(index + 1)
    const expect = [
      `route: ${trace?.routeId === undefined ? 'null' : q(trace.routeId)}`,
      ...(trace ? [`kind: ${trace.kind}`, `outcome: ${trace.outcome}`] : []),
      `state: ${q(turn.snapshot.state)}`,
      `reply: ${q(turn.reply)}`,
      ...(turn.error === undefined ? [] : ['error: true']),
    ]
    lines.push(stepLine(steps[index] as ConversationStep), `    expect: { ${expect.join(', ')} }`)
  }
  const keptTurns = redacted?.kept ?? []
  const header = [
    `# Exported from conversation ${stored.conversationId} (definition ${stored.definition.id}, stored under revision ${stored.definition.revision}, version ${stored.version}).`,
    `# The expectations are what revision ${definition.revision} of "${definition.id}" gives: run it with \`chatrail test\`.`,
    ...(options.redact === true ? ['# Redacted: user texts and agent replies are placeholders that the routes decide the same way.'] : []),
    ...(keptTurns.length > 0 ? [`# Kept as typed (no placeholder decides the same way): turn${keptTurns.length === 1 ? '' : 's'} ${keptTurns.join(', ')}.`] : []),
    ...(changedTurns.length > 0 ? [`# Decided differently from the stored history: turn${changedTurns.length === 1 ? '' : 's'} ${changedTurns.join(', ')}.`] : []),
  ]
  const definitionLine = `definition: { module: ${q(options.module.module)}${options.module.export === undefined ? '' : `, export: ${q(options.module.export)}`} }`
  const agentLines = agent === undefined || agent.used.length === 0 ? [] : ['agent:', ...agent.used.map(replyLine)]
  const body = steps.length === 0 ? [] : ['turns:', ...lines]
  const yaml = `${[...header, definitionLine, `name: ${q(stored.conversationId)}`, ...agentLines, ...body].join('\n')}\n`
  return { conversationId: stored.conversationId, fileName: `${stored.conversationId}.conv.yaml`, yaml, redacted: options.redact === true, keptTurns, changedTurns }
}
