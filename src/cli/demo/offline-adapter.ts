import type { AdapterFactory, AdapterRequest } from '../../contract/adapter.js'
import type { StreamChunk, StreamSource } from '../../contract/stream.js'
import type { JsonObject } from '../../conversation/json.js'
import type { Route } from '../../conversation/routes.js'

/**
 * The demo's agentic fallback when no coding agent answers: it says plainly that no agent is
 * connected and lists what the workflow does understand, from the routes' descriptions. It makes
 * no network call and no process, so `npm start` works on any fresh machine.
 */

export interface OfflineAdapterOptions {
  /** Pause between streamed chunks, so the terminal shows a reply arriving. @default 12 */
  chunkDelayMs?: number
  /** Injectable sleep (tests pass one that resolves at once). */
  sleep?: (ms: number) => Promise<void>
}

/** How a user reaches a route, in words a terminal user can type or press. */
export function describeTrigger<Ctx extends JsonObject>(route: Route<Ctx>): string {
  switch (route.kind) {
    case 'command':
      return route.command
    case 'text':
      return route.texts.map((text) => `"${text}"`).join(' or ')
    case 'pattern':
      return `text matching ${String(route.pattern)}`
    case 'event':
      return `the ${route.uiEvent} event (Alt+number)`
    case 'custom':
      return `(${route.id})`
  }
}

/** The offline answer for one unmatched input. Pure: same routes and input, same text. */
export function offlineReply<Ctx extends JsonObject>(routes: readonly Route<Ctx>[], input: string): string {
  const quoted = input.length > 60 ? `${input.slice(0, 57).trimEnd()}...` : input
  const lines = routes.map((route) => {
    const where = route.states === undefined ? '' : ` [in ${route.states.join(', ')}]`
    // A pattern or a custom matcher reads better as its description alone than as code.
    const free = route.kind === 'pattern' || route.kind === 'custom'
    const line = free && route.description !== undefined ? route.description : `${describeTrigger(route)} - ${route.description ?? route.id}`
    return `- ${line}${where}`
  })
  // Markdown, as every reply is rendered: paragraphs apart, the routes a list.
  return [
    `No agent is connected (offline demo adapter), so nothing here can answer "${quoted}" freely.`,
    lines.length === 0 ? 'This workflow declares no routes.' : ['This workflow understands:', ...lines].join('\n'),
    'For real answers, sign in to Claude Code or Codex, or set up OpenCode, and restart the demo.',
  ].join('\n\n')
}

function lastUserText(request: AdapterRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index]
    if (message?.role === 'user') return message.content
  }
  return ''
}

/** Splits a reply into word-sized text chunks (whitespace kept with the word before it). */
function textChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? []
}

export function createOfflineAdapter<Ctx extends JsonObject>(
  routes: readonly Route<Ctx>[],
  options: OfflineAdapterOptions = {},
): AdapterFactory {
  const delay = options.chunkDelayMs ?? 12
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  return {
    capabilities: { streaming: true, tools: false },
    createSource(request: AdapterRequest): StreamSource {
      let aborted = false
      return {
        abort: () => {
          aborted = true
        },
        async *stream(): AsyncIterableIterator<StreamChunk> {
          for (const content of textChunks(offlineReply(routes, lastUserText(request)))) {
            if (aborted) return
            yield { type: 'text', content }
            if (delay > 0) await sleep(delay)
          }
          if (!aborted) yield { type: 'done' }
        },
      }
    },
  }
}
