import type { StreamChunk } from '../../contract/stream.js'
import type { AgentReplySpec } from './file-schema.js'
import type { ScriptedStep } from '../scripted-adapter.js'

/**
 * A conversation file's `agent:` replies as `scriptedAdapter` steps. Text streams word by word,
 * one chunk per event-loop turn like a real model, so a `stop` turn interrupts it after the first
 * word. Explicit `chunks` play exactly as written.
 */
export function agentScript(replies: readonly AgentReplySpec[]): ScriptedStep[] {
  return replies.map((reply) => () => paced(chunksOf(reply)))
}

function chunksOf(reply: AgentReplySpec): StreamChunk[] {
  if (typeof reply === 'string') return words(reply)
  if ('text' in reply) return words(reply.text)
  if ('error' in reply) return [{ type: 'error', content: reply.error, metadata: { error: new Error(reply.error) } }]
  return reply.chunks
}

async function* paced(chunks: readonly StreamChunk[]): AsyncIterable<StreamChunk> {
  for (const chunk of chunks) {
    await new Promise((resolve) => setImmediate(resolve))
    yield chunk
  }
}

function words(text: string): StreamChunk[] {
  const pieces = text.match(/\s*\S+\s*/g) ?? [text]
  return [...pieces.map((content): StreamChunk => ({ type: 'text', content })), { type: 'done' }]
}
