import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { cassetteRequest, sameCassetteRequest } from './cassette.js'
import type { Cassette, CassetteInteraction, CassetteRequest } from './cassette.js'

export interface ReplayAdapter extends AdapterFactory {
  /** Recordings no request has used yet, in cassette order. */
  unused: () => CassetteInteraction[]
  /** How many requests found no recording (each got an error chunk). */
  readonly misses: number
}

/**
 * Answers requests from a cassette, offline. Each request takes the first unused recording whose
 * role/content transcript equals its own, and streams that recording's chunks. A request with no
 * such recording gets one `error` chunk saying which request it was, what it asked and what the
 * cassette expected next, so a drifted conversation fails as a turn error, never as a hang.
 */
export function replayAdapter(cassette: Cassette): ReplayAdapter {
  const used = new Set<number>()
  let requests = 0
  let misses = 0
  const createSource = (request: AdapterRequest): StreamSource => {
    requests += 1
    const number = requests
    const wanted = cassetteRequest(request)
    const index = cassette.interactions.findIndex((interaction, at) => !used.has(at) && sameCassetteRequest(interaction.request, wanted))
    if (index >= 0) used.add(index)
    else misses += 1
    let aborted = false
    const chunks = index >= 0 ? (cassette.interactions[index]?.chunks ?? []) : [mismatchChunk(number, wanted, cassette, used)]
    return {
      stream: async function* () {
        for (const chunk of chunks) {
          if (aborted) return
          // One macrotask per chunk, like a real stream, so stop() can land between chunks.
          await new Promise((resolve) => setImmediate(resolve))
          if (aborted) return
          yield { ...chunk }
        }
      },
      abort: () => {
        aborted = true
      },
    }
  }
  return {
    createSource,
    unused: () => cassette.interactions.filter((_, at) => !used.has(at)),
    get misses() {
      return misses
    },
  }
}

function lastUserText(request: CassetteRequest): string | undefined {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content
}

function mismatchChunk(number: number, wanted: CassetteRequest, cassette: Cassette, used: ReadonlySet<number>): StreamChunk {
  const next = cassette.interactions.findIndex((_, at) => !used.has(at))
  const expected = next >= 0 ? cassette.interactions[next] : undefined
  const asked = JSON.stringify(lastUserText(wanted) ?? '')
  const detail =
    expected === undefined
      ? `the cassette has no unused recordings left (it holds ${cassette.interactions.length})`
      : `the next unused recording (#${next + 1}) was made for ${JSON.stringify(lastUserText(expected.request) ?? '')} after ${expected.request.messages.length} messages, this request has ${wanted.messages.length}`
  return {
    type: 'error',
    content: `replayAdapter: request #${number} (last user message ${asked}) matches no recording: ${detail}. The conversation changed since the cassette was recorded; record it again (chatrail test --record).`,
  }
}
