import type { Message } from '../contract/message.js'
import type { ChatrailPartData, FinishReason } from '../protocol/ui-parts.js'
import type { WirePart } from './tool-parts.js'

/**
 * What a resumed stream has sent so far, so that when the recorded parts stop short of `finish`
 * (the turn's parts passed the store's cap, or the instance running it died after storing its
 * answer) the stream can end with the rest of the stored answer instead of cutting off: the answer's
 * text after what was sent, the open text and reasoning parts closed, its error code if it failed,
 * and `finish`. Without a stored answer (the turn died before storing anything) it ends with an
 * `error` part `TURN_INTERRUPTED`, as the turn itself would have ended: a retry runs it again.
 */
export interface ReplayTracker {
  /** One part as sent (its parsed JSON). */
  see: (part: unknown) => void
  /** The assistant message id of the replayed turn (its `start` part). */
  readonly messageId: string | undefined
  /** The parts that end the stream, from the stored answer (or its absence). */
  ending: (answer: Message | undefined, snapshot: ChatrailPartData | undefined) => WirePart[]
}

type Seen = { type?: unknown; id?: unknown; delta?: unknown; messageId?: unknown }

export function createReplayTracker(): ReplayTracker {
  let messageId: string | undefined
  let text = ''
  let openText: string | undefined
  let openReasoning: string | undefined

  const close = (): WirePart[] => {
    const parts: WirePart[] = []
    if (openReasoning !== undefined) parts.push({ type: 'reasoning-end', id: openReasoning })
    if (openText !== undefined) parts.push({ type: 'text-end', id: openText })
    openReasoning = undefined
    openText = undefined
    return parts
  }

  return {
    see(value) {
      if (typeof value !== 'object' || value === null) return
      const part = value as Seen
      const id = typeof part.id === 'string' ? part.id : undefined
      switch (part.type) {
        case 'start':
          if (typeof part.messageId === 'string') messageId = part.messageId
          break
        case 'text-start':
          openText = id
          break
        case 'text-delta':
          if (typeof part.delta === 'string') text += part.delta
          break
        case 'text-end':
          if (openText === id) openText = undefined
          break
        case 'reasoning-start':
          openReasoning = id
          break
        case 'reasoning-end':
          if (openReasoning === id) openReasoning = undefined
          break
      }
    },
    get messageId() {
      return messageId
    },
    ending(answer, snapshot) {
      if (!answer) return [...close(), { type: 'error', errorText: 'TURN_INTERRUPTED' }, { type: 'finish', finishReason: 'error' }]
      const parts: WirePart[] = []
      if (openReasoning !== undefined) {
        parts.push({ type: 'reasoning-end', id: openReasoning })
        openReasoning = undefined
      }
      // what was sent is a prefix of the stored text, unless the store cut the answer to fit: then nothing more
      const rest = answer.content.startsWith(text) ? answer.content.slice(text.length) : ''
      if (rest !== '') {
        if (openText === undefined) {
          openText = `${messageId ?? answer.id}:resumed`
          parts.push({ type: 'text-start', id: openText })
        }
        parts.push({ type: 'text-delta', id: openText, delta: rest })
      }
      parts.push(...close())
      const failed = answer.status === 'error'
      if (failed) parts.push({ type: 'error', errorText: errorCodeOf(answer) })
      if (snapshot) parts.push({ type: 'data-chatrail', data: snapshot })
      const reason: FinishReason = failed ? 'error' : answer.metadata?.truncated !== undefined ? 'length' : 'stop'
      parts.push({ type: 'finish', finishReason: reason })
      return parts
    },
  }
}

function errorCodeOf(answer: Message): string {
  const code = (answer.metadata?.error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' ? code : 'AGENT_ERROR'
}
