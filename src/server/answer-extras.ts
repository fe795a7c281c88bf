import type { Message } from '../contract/message.js'
import { MAX_SOURCES, sourceOfChunk, sourcesOf, type MessageSource } from '../contract/message-source.js'
import type { StreamChunk } from '../contract/stream.js'

/**
 * What an answer streams beside its text that the server stores with it, under the keys the
 * controller gives a live reply (`metadata.reasoning`, `metadata.sources`), so a reloaded page shows
 * its "Thinking" section and its sources as the live one did (ui-messages.ts sends them back as
 * `reasoning` and `source-url` parts). Sources as the controller gathers them: well-formed ones only,
 * the first of each url, at most `MAX_SOURCES`. A resumed answer (tool approvals) goes on from what
 * it had stored.
 */
export class AnswerExtras {
  private reasoning: string
  private readonly sources: MessageSource[]

  constructor(resumed?: Message) {
    const stored = resumed?.metadata?.reasoning
    this.reasoning = typeof stored === 'string' ? stored : ''
    this.sources = resumed ? sourcesOf(resumed) : []
  }

  observe(chunk: StreamChunk): void {
    if (chunk.type === 'reasoning') {
      if (typeof chunk.content === 'string') this.reasoning += chunk.content
      return
    }
    const source = chunk.type === 'text' && chunk.metadata !== undefined ? sourceOfChunk(chunk) : undefined
    if (source === undefined || this.sources.length >= MAX_SOURCES || this.sources.some((kept) => kept.url === source.url)) return
    this.sources.push(source)
  }

  /** The metadata keys to store: only those with something in them. */
  metadata(): { reasoning?: string; sources?: MessageSource[] } {
    return {
      ...(this.reasoning === '' ? {} : { reasoning: this.reasoning }),
      ...(this.sources.length === 0 ? {} : { sources: [...this.sources] }),
    }
  }
}
