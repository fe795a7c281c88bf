import { resolve } from 'node:path'
import { ChatrailError } from '../contract/errors.js'
import { defineChat, type ChatDefinition } from '../index.js'
import { loadDefinition } from '../testing/conversations/definition-loader.js'
import { loadAgentAdapter } from './demo/agent-adapter.js'
import { resolveDemoAgent } from './demo/resolve-demo-agent.js'
import { loadServePage } from './serve/page-assets.js'
import { pageConfigOf } from './serve/page-config.js'
import { parseServeArgs, serveHelp, type ServeOptions } from './serve/serve-args.js'
import { startServeHttp, API_PATH } from './serve/serve-http.js'
import { describeStore, openStore } from './serve/open-store.js'
import { bearerTokenAuth } from './serve/token-auth.js'

/**
 * `chatrail serve <module>`: a chat definition behind `createChatHandler` at /api/chat, with the
 * built-in chat page at /, until SIGINT or SIGTERM. Exit codes: 0 after a clean stop, 1 when the
 * definition, the store or the port fails, 2 a usage error.
 */

export interface ServeIo {
  stdout: (line: string) => void
  stderr: (line: string) => void
  cwd: string
  env: NodeJS.ProcessEnv
}

export interface StartedServe {
  readonly url: string
  /** Closes the HTTP server, then the store. */
  close: () => Promise<void>
}

/** The command-table entry point (src/cli/main.ts). */
export async function run(args: readonly string[]): Promise<number> {
  const io: ServeIo = {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    env: process.env,
  }
  const parsed = parseServeArgs(args, io.env)
  if (parsed.kind === 'help') {
    io.stdout(serveHelp)
    return 0
  }
  if (parsed.kind === 'error') {
    io.stderr(parsed.message)
    return 2
  }
  let started: StartedServe
  try {
    started = await startServe(parsed.options, io)
  } catch (error) {
    io.stderr(`chatrail serve: ${ChatrailError.isInstance(error) ? error.toString() : error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  await untilSignal()
  io.stdout('stopping…')
  await started.close()
  // A turn cut off by the stop may still hold a timer (an agent waiting on a dialog, the turn
  // timeout): once the server and store are closed nothing of it matters, so it must not keep the
  // process alive. Unref'd: it fires only if something else still does.
  setTimeout(() => process.exit(0), 1000).unref()
  return 0
}

/** Loads the definition, opens the store, builds or reads the page, and listens. */
export async function startServe(options: ServeOptions, io: ServeIo): Promise<StartedServe> {
  const { createChatHandler } = await import('../server/index.js')
  let definition = await loadServedDefinition(resolve(io.cwd, options.module))
  let agentLine = definition.chat.adapter === undefined ? 'none: unmatched input gets the definition\'s fallback answer' : 'the definition\'s own adapter'
  if (options.agent !== undefined) {
    const choice = await resolveDemoAgent({ requested: options.agent, env: io.env, cwd: io.cwd, timeoutMs: 8000 })
    const adapter = await loadAgentAdapter(choice, definition.conversation.routes, io.cwd)
    definition = withAdapter(definition, adapter)
    agentLine = choice.reason
  }
  const page = await loadServePage()
  const store = await openStore(options.store)
  let server
  try {
    const authenticate = options.token === undefined ? 'none' : bearerTokenAuth(options.token)
    const handler = createChatHandler({
      definition,
      store,
      authenticate,
      // The operator's terminal gets what a response never carries: the internal error's text.
      onError: (error) => io.stderr(`chatrail serve: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    })
    server = await startServeHttp({ handler, page: page.files, pageConfig: pageConfigOf(definition), authenticate, host: options.host, port: options.port })
  } catch (error) {
    await store.close().catch(() => undefined)
    throw error
  }
  io.stdout(`chatrail serve · ${definition.id} (revision ${definition.revision})`)
  io.stdout(`store: ${describeStore(options.store)}`)
  io.stdout(`agent: ${agentLine}`)
  io.stdout(`page: ${page.source === 'prebuilt' ? 'prebuilt (dist/serve-page)' : 'built from renderers/serve-page with esbuild (a checkout)'}`)
  io.stdout(
    options.token === undefined
      ? `auth: none (authenticate: 'none'): only this machine can reach ${options.host}; pass --token <secret> to require one`
      : `auth: Authorization: Bearer <token> on ${API_PATH}; open the page as ${server.url}/#token=<secret>`,
  )
  io.stdout(`listening on ${server.url}`)
  const running = server
  return {
    url: running.url,
    close: async () => {
      await running.close()
      await store.close()
    },
  }
}

/** The module's default export, or its export named `definition`. */
export async function loadServedDefinition(path: string): Promise<ChatDefinition> {
  try {
    return await loadDefinition(path, 'default')
  } catch (error) {
    if (!ChatrailError.isInstance(error) || error.code !== 'DEFINITION_EXPORT_MISSING') throw error
    try {
      return await loadDefinition(path, 'definition')
    } catch (second) {
      if (ChatrailError.isInstance(second) && second.code === 'DEFINITION_EXPORT_MISSING') {
        throw new ChatrailError({
          code: 'DEFINITION_EXPORT_MISSING',
          message: `${path} exports no chat definition as its default export or as \`definition\``,
          hint: second.hint ?? 'Export the result of defineChat: `export default defineChat({ … })`.',
        })
      }
      throw second
    }
  }
}

function withAdapter(definition: ChatDefinition, adapter: NonNullable<ChatDefinition['chat']['adapter']>): ChatDefinition {
  return defineChat({ id: definition.id, revision: definition.revision, chat: { ...definition.chat, adapter }, conversation: definition.conversation })
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
