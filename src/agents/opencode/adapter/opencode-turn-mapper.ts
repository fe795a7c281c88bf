import type { StreamChunk, TokenUsage } from '../../../contract/stream.js'
import { numberField, recordField, stringField } from '../../process/json-value.js'
import { createProviderTools } from '../../process/provider-tools.js'
import type { ProviderTools } from '../../process/provider-tools.js'
import type { JsonRecord } from '../../process/json-value.js'
import type { OpencodeEvent } from '../sse-parser.js'

/**
 * One turn's OpenCode events → chatrail chunks. Only events of `sessionId` after the prompt count:
 *
 * | event | chunks |
 * |---|---|
 * | `message.part.delta` of an assistant text / reasoning part | `text` / `reasoning` as it arrives |
 * | `message.part.updated` text / reasoning | only what the deltas missed (never counted twice) |
 * | a `tool` part reaching `running` | a running `tool_call` (`metadata.providerExecuted`) |
 * | a `tool` part reaching `completed` / `error` | its `tool_result` (`metadata.isError`; the `tool_call` carrying the result first when it was never seen running) |
 * | the session going idle with a tool part still `running` | a `tool_result` saying so, result unknown (`metadata.resultUnknown`), before the terminal chunk |
 * | `message.updated` of a finished assistant message | its tokens, summed into the turn's `usage` |
 * | `session.status` idle after busy | `usage`, then `done` (`metadata`: `agent`, `sessionId`, `finish`) — or one `error` chunk when the last reply carries an error |
 *
 * Text parts of one turn are separated by a blank line. OpenCode runs its own tools (provider-run,
 * no tool loop; `createProviderTools`).
 */
export interface TurnMapper {
  map: (event: OpencodeEvent) => StreamChunk[]
  /** True once the turn's terminal chunk was produced. */
  finished: () => boolean
}

export function createTurnMapper(sessionId: string): TurnMapper {
  const partTypes = new Map<string, string>()
  const emitted = new Map<string, number>()
  const tools = createProviderTools('opencode')
  const messages = new Map<string, JsonRecord>()
  let textEmitted = false
  let lastTextPart: string | undefined
  let busy = false
  let finished = false
  let sessionError: JsonRecord | undefined

  function textChunk(partId: string, kind: string, text: string): StreamChunk[] {
    if (text === '') return []
    if (kind === 'reasoning') return [{ type: 'reasoning', content: text }]
    const separator = textEmitted && lastTextPart !== partId ? '\n\n' : ''
    textEmitted = true
    lastTextPart = partId
    return [{ type: 'text', content: separator + text }]
  }

  function isAssistant(messageId: string | undefined): boolean {
    return messageId !== undefined && messages.get(messageId)?.role === 'assistant'
  }

  function terminal(): StreamChunk[] {
    finished = true
    // OpenCode's own record keeps such a part `running` (the reader shows it so): it never reported a result.
    const open = tools.unfinished((tool) => ({
      status: 'running',
      content: `${tool.lastResult === undefined ? '' : `${tool.lastResult}\n\n`}Still running when the session went idle; OpenCode reported no result for it, so the result is unknown.`,
      metadata: { status: 'unfinished' },
    }))
    const assistants = [...messages.values()].filter((info) => info.role === 'assistant').sort((a, b) => ((stringField(a, 'id') ?? '') < (stringField(b, 'id') ?? '') ? -1 : 1))
    const last = assistants.at(-1)
    const error = recordField(last, 'error') ?? sessionError
    if (error) {
      const name = stringField(error, 'name') ?? 'UnknownError'
      const message = stringField(recordField(error, 'data'), 'message') ?? stringField(error, 'message') ?? name
      return [...open, { type: 'error', content: `OpenCode turn failed: ${message}`, metadata: { code: name === 'MessageAbortedError' ? 'OPENCODE_ABORTED' : 'OPENCODE_TURN_FAILED', errorName: name, error: new Error(`OpenCode turn failed: ${message}`) } }]
    }
    const usage = assistants.reduce<TokenUsage | undefined>((total, info) => addTokens(total, recordField(info, 'tokens')), undefined)
    return [
      ...open,
      ...(usage ? [{ type: 'usage' as const, usage }] : []),
      { type: 'done', metadata: { agent: 'opencode', sessionId, finish: stringField(last, 'finish') ?? 'unknown' } },
    ]
  }

  return {
    finished: () => finished,
    map(event) {
      if (finished || event.properties.sessionID !== sessionId) return []
      const props = event.properties
      switch (event.type) {
        case 'message.updated': {
          const info = recordField(props, 'info')
          const id = stringField(info, 'id')
          if (info && id !== undefined) messages.set(id, { ...messages.get(id), ...info })
          return []
        }
        case 'message.part.updated': {
          const part = recordField(props, 'part')
          const id = stringField(part, 'id')
          const type = stringField(part, 'type')
          if (!part || id === undefined || type === undefined || !isAssistant(stringField(part, 'messageID'))) return []
          partTypes.set(id, type)
          if (type === 'text' || type === 'reasoning') {
            const text = stringField(part, 'text') ?? ''
            const done = emitted.get(id) ?? 0
            if (text.length <= done) return []
            emitted.set(id, text.length)
            return textChunk(id, type, text.slice(done))
          }
          if (type === 'tool') return toolChunks(part, tools)
          return []
        }
        case 'message.part.delta': {
          const partId = stringField(props, 'partID')
          const delta = stringField(props, 'delta')
          const kind = partId === undefined ? undefined : partTypes.get(partId)
          if (partId === undefined || delta === undefined || props.field !== 'text' || (kind !== 'text' && kind !== 'reasoning')) return []
          emitted.set(partId, (emitted.get(partId) ?? 0) + delta.length)
          return textChunk(partId, kind, delta)
        }
        case 'session.error':
          sessionError = recordField(props, 'error') ?? { name: 'UnknownError' }
          return []
        case 'session.status': {
          const type = stringField(recordField(props, 'status'), 'type')
          if (type === 'busy' || type === 'retry') busy = true
          return type === 'idle' && busy ? terminal() : []
        }
        case 'session.idle':
          return busy ? terminal() : []
        default:
          return []
      }
    },
  }
}

function toolChunks(part: JsonRecord, tools: ProviderTools): StreamChunk[] {
  const state = recordField(part, 'state')
  const status = stringField(state, 'status')
  const call = { id: stringField(part, 'callID') ?? stringField(part, 'id') ?? 'tool', name: stringField(part, 'tool') ?? 'tool', args: JSON.stringify(recordField(state, 'input') ?? {}) }
  // `pending` has no complete input yet; `running` does.
  if (status === 'running') return tools.started(call)
  if (status !== 'completed' && status !== 'error') return []
  const result = (status === 'completed' ? stringField(state, 'output') : stringField(state, 'error')) ?? ''
  return tools.result(call, result, status === 'error' ? 'error' : 'complete')
}

function addTokens(total: TokenUsage | undefined, tokens: JsonRecord | undefined): TokenUsage | undefined {
  if (!tokens) return total
  const cache = recordField(tokens, 'cache')
  // Prompt tokens as the other adapters count them: input plus cache reads and writes.
  const prompt = (numberField(tokens, 'input') ?? 0) + (numberField(cache, 'read') ?? 0) + (numberField(cache, 'write') ?? 0)
  const completion = (numberField(tokens, 'output') ?? 0) + (numberField(tokens, 'reasoning') ?? 0)
  if (total === undefined && prompt + completion === 0) return undefined
  const promptTokens = (total?.promptTokens ?? 0) + prompt
  const completionTokens = (total?.completionTokens ?? 0) + completion
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens }
}
