import type { AdapterFactory } from '../contract/adapter.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import type { DecisionRecord } from '../conversation/decision-record.js'
import type { ChatDefinition } from '../conversation/definition.js'
import type { ExplainedTurn } from '../conversation/explain.js'
import type { JsonObject } from '../conversation/json.js'
import type { Route } from '../conversation/routes.js'
import { createChatSession } from '../conversation/session.js'
import { uiEventMessageMetadata } from '../conversation/ui-events.js'
import type { AgentReplySpec } from '../testing/conversations/file-schema.js'
import type { ConversationStep } from '../testing/conversations/step.js'

/**
 * Redaction for export: each user text is replaced by a placeholder that the definition decides
 * exactly as it decides the real text, in the state (and context) the redacted conversation is in
 * by then — the same route, event, target state, reason and form slot (`explainTurn`'s outcome,
 * compared field by field). The candidates, in order: for a turn the agent answers, `[redacted N]`;
 * else the route's own words (a command route's command, a text route's texts), then the text
 * masked to its shape (letters to `x`/`X`, digits to `0`, so a form's "4 digits" or postcode check
 * still passes), then `[redacted N]`. A custom route's match function or a pattern that needs the
 * very words typed can leave none that decides the same way.
 * A text none of them stands in for is kept as typed and reported, never silently. A UI event's
 * text is the button's label (the app's words), so it is kept. Agent replies become
 * `[redacted agent reply N]` (a failed call stays a failure).
 *
 * The redacted conversation is played through a fresh session as it goes (each turn's decision is
 * checked in the state the previous placeholders led to), with the agent answering the redacted
 * replies; like the export's run, that runs route responses and stores nothing.
 */

export interface StoredTurn {
  readonly text: string
  readonly uiEvent?: string
  /** The stored answer as a scripted agent reply (its text, or the failure). */
  readonly reply: AgentReplySpec
}

export interface RedactedSteps {
  readonly steps: ConversationStep[]
  readonly replies: AgentReplySpec[]
  /** 1-based turns whose text was kept. */
  readonly kept: number[]
}

/** Letters to `x`/`X`, digits to `0`; everything else (spaces, punctuation) as it was. */
export function maskText(text: string): string {
  return text.replace(/[\p{L}\p{N}]/gu, (char) => (/\p{N}/u.test(char) ? '0' : /\p{Lu}/u.test(char) ? 'X' : 'x'))
}

function sameDecision(a: ExplainedTurn, b: ExplainedTurn): boolean {
  return a.kind === b.kind && a.routeId === b.routeId && a.event === b.event && a.toState === b.toState && a.reason === b.reason && a.slot === b.slot && a.outcome === b.outcome
}

function ownWords(route: Route<JsonObject> | undefined): readonly string[] {
  if (route?.kind === 'command') return [route.command]
  if (route?.kind === 'text') return route.texts
  return []
}

export async function redactedSteps<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, turns: readonly StoredTurn[], sessionId: string): Promise<RedactedSteps> {
  let reply: AgentReplySpec = ''
  const agent: AdapterFactory = {
    createSource: () => ({
      stream: async function* (): AsyncGenerator<StreamChunk> {
        if (typeof reply === 'object' && 'error' in reply) {
          yield { type: 'error', content: reply.error, metadata: { error: new Error(reply.error) } }
          return
        }
        const text = typeof reply === 'string' ? reply : 'text' in reply ? reply.text : ''
        if (text) yield { type: 'text', content: text }
        yield { type: 'done' }
      },
      abort: () => undefined,
    }),
  }
  const session = createChatSession(definition, { sessionId: `${sessionId}.redact`, lint: false })
  session.updateChat({ ...definition.chat, adapter: agent })
  const routes = definition.conversation.routes as readonly Route<JsonObject>[]
  const history: Message[] = []
  const steps: ConversationStep[] = []
  const replies: AgentReplySpec[] = []
  const kept: number[] = []
  try {
    for (const [index, turn] of turns.entries()) {
      const number = index + 1
      let text = turn.text
      if (turn.uiEvent === undefined) {
        const target = (await session.explainTurn(turn.text)).outcome
        const placeholder = `[redacted ${number}]`
        // the agent gets a placeholder that says nothing of the text; a route, its own words or the text's shape
        const candidates = target.kind === 'agent' ? [placeholder, maskText(turn.text)] : [...ownWords(routes.find((route) => route.id === target.routeId)), maskText(turn.text), placeholder]
        let chosen: string | undefined
        for (const candidate of candidates) {
          if (sameDecision((await session.explainTurn(candidate)).outcome, target)) {
            chosen = candidate
            break
          }
        }
        if (chosen === undefined) kept.push(number)
        else text = chosen
      }
      reply = typeof turn.reply === 'string' ? `[redacted agent reply ${number}]` : turn.reply
      replies.push(reply)
      steps.push(turn.uiEvent === undefined ? { user: text } : { event: turn.uiEvent, label: turn.text })
      // play the turn on, so the next placeholder is checked where this one led
      const user: Message = { id: `u${number}`, role: 'user', content: text, status: 'complete', createdAt: new Date(0), ...(turn.uiEvent === undefined ? {} : { metadata: uiEventMessageMetadata(turn.uiEvent) }) }
      const answer: Message = { id: `a${number}`, role: 'assistant', content: '', status: 'streaming', createdAt: new Date(0) }
      const chunks: StreamChunk[] = []
      for await (const chunk of session.chat.adapter.createSource({ messages: [...history, user, answer] }).stream()) chunks.push(chunk)
      const record = chunks.find((chunk) => chunk.type === 'done')?.metadata?.chatrail as DecisionRecord | undefined
      const content = chunks.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content ?? '').join('')
      history.push(user, { ...answer, content, status: 'complete', ...(record ? { metadata: { chatrail: record } } : {}) })
    }
  } finally {
    session.dispose()
  }
  return { steps, replies, kept }
}
