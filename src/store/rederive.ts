import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import type { DecisionRecord } from '../conversation/decision-record.js'
import type { ChatDefinition } from '../conversation/definition.js'
import type { JsonObject } from '../conversation/json.js'
import { createChatSession } from '../conversation/session.js'
import type { TurnTrace } from '../conversation/trace.js'

/**
 * Re-decides a stored history through a (new revision of a) definition: each user message, in
 * order, is run as a turn of a fresh session. A message a route now answers gets that route's
 * answer and a new decision record (a deterministic turn re-derived); a message no route answers
 * keeps its stored answer, verbatim, with any old record removed (an agentic answer kept; no
 * model is called: a stand-in adapter replays the stored text). So no state of the old definition
 * survives unless the new one re-decides it. Route responses run again, as on a retry after an edit.
 */

export interface Rederivation {
  readonly messages: Message[]
  /** One trace per re-decided user message, from the migration's own session (kind says how it went). */
  readonly traces: readonly TurnTrace[]
}

const withoutRecord = (message: Message): Message => {
  if (!message.metadata || !('chatrail' in message.metadata) || message.role === 'user') return message
  const metadata = { ...message.metadata }
  delete metadata.chatrail
  if (Object.keys(metadata).length > 0) return { ...message, metadata }
  const { metadata: _dropped, ...rest } = message
  return rest
}

export async function rederive<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, stored: readonly Message[], sessionId = 'rederive'): Promise<Rederivation> {
  // The stored answers of the turn being re-decided: what the stand-in "agent" says for a miss.
  let keptAnswers: readonly Message[] = []
  const keeper: AdapterFactory = {
    createSource: () => ({
      stream: async function* (): AsyncGenerator<StreamChunk> {
        const text = keptAnswers.find((m) => m.role === 'assistant')?.content ?? ''
        if (text) yield { type: 'text', content: text }
        yield { type: 'done' }
      },
      abort: () => undefined,
    }),
  }
  const session = createChatSession(definition, { sessionId, lint: false })
  session.updateChat({ ...definition.chat, adapter: keeper })
  const out: Message[] = []
  let i = 0
  while (i < stored.length && stored[i]?.role !== 'user') out.push(withoutRecord(stored[i++] as Message))
  while (i < stored.length) {
    const user = stored[i++] as Message
    const answers: Message[] = []
    while (i < stored.length && stored[i]?.role !== 'user') answers.push(stored[i++] as Message)
    keptAnswers = answers
    const first = answers.find((m) => m.role === 'assistant')
    // Without the old answer's record: the new definition re-decides the turn or nothing does.
    const placeholder: Message = first ? { ...withoutRecord(first), content: '', status: 'streaming' } : { id: `${user.id}:answer`, role: 'assistant', content: '', status: 'streaming', createdAt: user.createdAt }
    const request: AdapterRequest = { messages: [...out, user, placeholder] }
    const chunks: StreamChunk[] = []
    for await (const chunk of session.chat.adapter.createSource(request).stream()) chunks.push(chunk)
    const trace = session.traces().at(-1)
    out.push(user)
    const record = chunks.find((c) => c.type === 'done')?.metadata?.chatrail as DecisionRecord | undefined
    // A committed deterministic answer (a re-prompt and a stale-button answer commit too: a form's attempt count rides on them).
    if (trace && trace.kind !== 'agentic' && record && (trace.outcome === 'ok' || trace.outcome === 'refused' || trace.outcome === 'unavailable')) {
      const text = chunks.filter((c) => c.type === 'text').map((c) => c.content ?? '').join('')
      out.push({ ...withoutRecord(placeholder), content: text, status: 'complete', metadata: { ...withoutRecord(placeholder).metadata, chatrail: record } })
    } else {
      for (const answer of answers) out.push(withoutRecord(answer))
    }
  }
  return { messages: out, traces: session.traces() }
}
