import { relative, resolve, sep } from 'node:path'
import { ChatrailError } from '../contract/errors.js'
import { defineChat, type ChatDefinition } from '../index.js'
import { loadDefinition } from '../testing/conversations/definition-loader.js'
import { loadAgentAdapter } from './demo/agent-adapter.js'
import { resolveDemoAgent } from './demo/resolve-demo-agent.js'
import { loadDevtoolsPage, loadServePage } from './serve/page-assets.js'
import { pageConfigOf } from './serve/page-config.js'
import { servedConfirmations } from './serve/serve-confirmations.js'
import { parseServeArgs, serveHelp, type ServeOptions } from './serve/serve-args.js'
import { bindServeHttp, API_PATH, DEVTOOLS_API_PATH, DEVTOOLS_PATH } from './serve/serve-http.js'
import { describeStore, openWarmStore } from './serve/open-store.js'
import type { ConversationStore } from '../store/index.js'
import { bearerTokenAuth, TOKEN_PRINCIPAL } from './serve/token-auth.js'
import { servePermissions, type ServePermissions } from './serve/serve-permissions.js'
import { readTokenFile } from './serve/token-file.js'
import { watchParent } from './serve/parent-watch.js'
import { warmUp } from './serve/warm-up.js'

/**
 * `chatrail serve <module>`: a chat definition behind `createChatHandler` at /api/chat, with the
 * built-in chat page at /, and the devtools (page at /devtools/, `createDevtoolsHandler` at
 * /devtools/api, the same authentication as the chat), until SIGINT or SIGTERM. Exit codes: 0
 * after a clean stop, 1 when the definition, the store or the port fails, 2 a usage error.
 */

export interface ServeIo {
  stdout: (line: string) => void
  stderr: (line: string) => void
  cwd: string
  env: NodeJS.ProcessEnv
}

export interface StartedServe {
  readonly url: string
  /** Drains the handler (`handler.close()`: no new turns, running ones finish or end by the deadline), closes the HTTP server, then the store. */
  close: () => Promise<void>
}

/** How long a stop lets running turns finish before they end as failed (`SERVER_SHUTDOWN`) and the server closes. */
export const SHUTDOWN_DEADLINE_MS = 5000

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
  let options = parsed.options
  if (options.tokenOnCommandLine) {
    io.stderr('chatrail serve: warning: --token puts the secret in the command line, which every local user can read (ps, /proc/<pid>/cmdline); pass it with --token-file <path> (mode 600) or CHATRAIL_TOKEN instead')
  }
  if (options.tokenFile !== undefined) {
    const read = readTokenFile(resolve(io.cwd, options.tokenFile))
    if ('error' in read) {
      io.stderr(`chatrail serve: ${read.error}`)
      return 2
    }
    options = { ...options, token: read.token }
  }
  // Listening for SIGTERM/SIGINT from before the start: a signal that arrives while the store opens,
  // or right after "listening on", must stop the server cleanly (without a listener its default
  // action kills the process on the spot).
  const stop = untilStopped(io.env)
  let started: StartedServe
  try {
    started = await startServe(options, io)
  } catch (error) {
    stop.cancel()
    io.stderr(`chatrail serve: ${ChatrailError.isInstance(error) ? error.toString() : error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  const why = await stop.stopped
  io.stdout(why === 'parent' ? 'stopping… (the npm process that started it is gone)' : 'stopping…')
  await started.close()
  // A turn cut off by the stop may still hold a timer (an agent waiting on a dialog, the turn
  // timeout): once the server and store are closed nothing of it matters, so it must not keep the
  // process alive. Unref'd: it fires only if something else still does.
  setTimeout(() => process.exit(0), 1000).unref()
  return 0
}

/** Loads the definition, builds or reads the page, binds the port, opens the store (warm: connected and migrated), then serves. */
export async function startServe(options: ServeOptions, io: ServeIo): Promise<StartedServe> {
  const { createChatHandler, createHealthHandlers } = await import('../server/index.js')
  const { createDevtoolsHandler } = await import('../devtools/index.js')
  const modulePath = resolve(io.cwd, options.module)
  const served = await loadServedDefinitionExport(modulePath)
  let definition = served.definition
  let agentLine = definition.chat.adapter === undefined ? 'none: unmatched input gets the definition\'s fallback answer' : 'the definition\'s own adapter'
  // a coding agent's permission prompts: confirmation records of the conversation whose turn asks (serve-permissions.ts)
  const opened: { store?: ConversationStore } = {}
  let permissions: ServePermissions | undefined
  if (options.agent !== undefined) {
    const choice = await resolveDemoAgent({ requested: options.agent, env: io.env, cwd: io.cwd, timeoutMs: 8000 })
    if (choice.agent === 'claude-code' || choice.agent === 'opencode') {
      // a turn (and so a permission request) runs only once the store below is open
      permissions = servePermissions({ store: () => opened.store as ConversationStore, principal: options.token === undefined ? undefined : TOKEN_PRINCIPAL })
    }
    const adapter = await loadAgentAdapter(choice, definition.conversation.routes, io.cwd, permissions)
    definition = withAdapter(definition, adapter)
    agentLine = choice.reason
  }
  // what the page is told of the definition, worked out first: a bad theme stops here, before the port is bound
  const pageConfig = pageConfigOf(definition)
  const [page, devtoolsPage] = await Promise.all([loadServePage(), loadDevtoolsPage()])
  // The port first: a port in use fails before the store is touched (no directory created, locked
  // or migrated). Nothing is served until the store is open.
  const bound = await bindServeHttp({ host: options.host, port: options.port })
  let store: ConversationStore
  try {
    store = await openWarmStore(options.store)
    opened.store = store
  } catch (error) {
    await bound.close()
    throw error
  }
  const server = bound
  let handler: Awaited<ReturnType<typeof createChatHandler>>
  // the definition's tools that wait for a person's approval: served as confirmation records, decided from the page's cards
  const approvals = servedConfirmations(definition, store)
  // the endpoints and the page's cards for the records: the tools' calls, the agent's permission requests
  const confirming = approvals.length > 0 || permissions !== undefined
  let devtools: ReturnType<typeof createDevtoolsHandler> | undefined
  try {
    const authenticate = options.token === undefined ? 'none' : bearerTokenAuth(options.token)
    // The operator's terminal gets what a response never carries: the internal error's text.
    const onError = (error: unknown): void => io.stderr(`chatrail serve: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    handler = createChatHandler({ definition, store, authenticate, onError, ...(confirming ? { confirmations: {} } : {}) })
    const health = createHealthHandlers({ store, handler, onError })
    // The devtools read every conversation of the store: the operator holding the token (or, without
    // one, this machine: serve-http answers loopback names only) sees them all, as from the store itself.
    devtools = createDevtoolsHandler({
      store,
      definitions: [definition],
      authenticate,
      basePath: DEVTOOLS_API_PATH,
      access: 'all',
      // An exported test names the module as seen from here: saved in this directory, it runs as it is.
      exportModule: { module: moduleSpecifier(io.cwd, modulePath), ...(served.exportName === 'default' ? {} : { export: served.exportName }) },
      onError,
    })
    server.serve({ handler, health, page: page.files, pageConfig: confirming ? { ...pageConfig, confirmations: true } : pageConfig, authenticate, devtools: { handler: devtools, page: devtoolsPage.files } })
    // before "listening on": the first request must not pay the store's first statement or the read path's first run
    await warmUp(server.url, options.token, onError)
  } catch (error) {
    devtools?.close()
    await server.close()
    await store.close().catch(() => undefined)
    throw error
  }
  io.stdout(`chatrail serve · ${definition.id} (revision ${definition.revision})`)
  io.stdout(`store: ${describeStore(options.store)}`)
  io.stdout(`agent: ${agentLine}`)
  if (approvals.length > 0) io.stdout(`approvals: ${approvals.join(', ')} (each call waits for Approve on the page or the approve-action endpoint; it runs once)`)
  if (permissions) io.stdout('approvals: the agent\'s permission requests (each waits as a record of its conversation for Approve on the page or the approve-action endpoint)')
  io.stdout(`page: ${page.source === 'prebuilt' ? 'prebuilt (dist/serve-page)' : 'built from renderers/serve-page with esbuild (a checkout)'}`)
  io.stdout(
    options.token === undefined
      ? `auth: none (authenticate: 'none'): only this machine can reach ${options.host}; pass --token-file <path> (or set CHATRAIL_TOKEN) to require a token`
      : `auth: Authorization: Bearer <token> on ${API_PATH}; open the page as ${server.url}/#token=<secret>`,
  )
  io.stdout(`devtools: ${server.url}${DEVTOOLS_PATH}/${options.token === undefined ? '' : '#token=<secret>'} (API at ${DEVTOOLS_API_PATH})`)
  io.stdout(`listening on ${server.url}`)
  const running = server
  const draining = handler
  const devtoolsHandler = devtools
  return {
    url: running.url,
    close: async () => {
      // the devtools' event streams end first: an open one would hold the HTTP server's close for its grace period
      devtoolsHandler.close()
      // no new turns; running ones finish, or end stored as failed at the deadline with their leases released
      await draining.close({ deadlineMs: SHUTDOWN_DEADLINE_MS })
      // an agent still waiting on a permission hears the deny
      permissions?.dispose()
      await running.close()
      await store.close()
    },
  }
}

/** The module's default export, or its export named `definition`. */
export async function loadServedDefinition(path: string): Promise<ChatDefinition> {
  return (await loadServedDefinitionExport(path)).definition
}

/** `./<path>` of the module from `cwd` (a relative specifier, `/` separators), or its absolute path when it is not below `cwd`. */
export function moduleSpecifier(cwd: string, modulePath: string): string {
  const path = relative(cwd, modulePath)
  if (path === '' || path.startsWith('..') || resolve(cwd, path) !== modulePath) return modulePath.split(sep).join('/')
  return `./${path.split(sep).join('/')}`
}

/** The served definition and the export it came from (the devtools' exported tests name it). */
async function loadServedDefinitionExport(path: string): Promise<{ definition: ChatDefinition; exportName: 'default' | 'definition' }> {
  try {
    return { definition: await loadDefinition(path, 'default'), exportName: 'default' }
  } catch (error) {
    if (!ChatrailError.isInstance(error) || error.code !== 'DEFINITION_EXPORT_MISSING') throw error
    try {
      return { definition: await loadDefinition(path, 'definition'), exportName: 'definition' }
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

/** SIGINT, SIGTERM, or (started by npm: npx, npm run) the parent process gone, see parent-watch.ts. */
function untilStopped(env: NodeJS.ProcessEnv): { stopped: Promise<'signal' | 'parent'>; cancel: () => void } {
  let cancel = (): void => undefined
  const stopped = new Promise<'signal' | 'parent'>((resolve) => {
    const parent = env.npm_command ? watchParent() : undefined
    const detach = (): void => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      parent?.stop()
    }
    const stop = (why: 'signal' | 'parent'): void => {
      detach()
      resolve(why)
    }
    const onSignal = (): void => stop('signal')
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    void parent?.gone.then(() => stop('parent'))
    cancel = detach
  })
  return { stopped, cancel }
}
