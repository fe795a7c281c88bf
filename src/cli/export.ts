import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { ChatrailError } from '../contract/errors.js'
import type { ChatDefinition } from '../conversation/definition.js'
import { isIdentifier } from '../conversation/identifier.js'
import type { JsonObject } from '../conversation/json.js'
import type { ConversationStore } from '../store/conversation-store.js'
import { loadDefinition } from '../testing/conversations/definition-loader.js'
import { parseCommandArgs, usageErrorText } from './args.js'
import type { CommandIo } from './test-command.js'

/**
 * `chatrail export <conversation id> --definition <module> --store <spec> [--redact] [--out file]`:
 * a stored conversation as a `.conv.yaml` regression test (src/devtools/export-conversation.ts),
 * on stdout or into `--out`. The file's `definition:` line names the module relative to where the
 * file goes (`--out`'s directory, else the working directory). Exit 0 written, 1 the store, the
 * module or the conversation failed (one line: what and the fix), 2 a usage error.
 */

export const exportUsage = `usage: chatrail export <conversation id> --definition <module> --store <spec> [options]

Turns a stored conversation into a conversation file that \`chatrail test\` passes on the
definition: one step per turn expecting the route, kind, outcome, state and reply the definition
gives it, with the agent's stored answers as the file's scripted \`agent:\` replies. Making the
expectations runs the conversation once through the definition (its route responses run, as in
\`chatrail test\`); nothing is written to the store.

options:
  --definition <module>  the module exporting the defineChat result (its default export, or
                         \`definition\`; --export names another)
  --export <name>        the export to use
  --store <spec>         where the conversation is: pglite:<dir> or postgres://…
  --redact               replace user texts with placeholders the routes decide the same way, and
                         agent replies with "[redacted agent reply N]"; texts no placeholder
                         stands in for are kept and named on stderr
  --out <file>           write the file there instead of stdout
  -h, --help             show this help

examples:
  chatrail export c-42 --definition examples/lost-card/definition.ts --store pglite:./.chatrail > c-42.conv.yaml
  chatrail export c-42 --definition ./bot.ts --store postgres://app@db/chat --redact --out test/c-42.conv.yaml`

const defaultIo: CommandIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
}

export function run(args: readonly string[]): Promise<number> {
  return runExportCommand(args, defaultIo)
}

/** The definition and the export it came from (the file's `export:`). */
async function loadNamed(path: string, name: string | undefined): Promise<{ definition: ChatDefinition; exportName: string }> {
  if (name !== undefined) return { definition: await loadDefinition(path, name), exportName: name }
  try {
    return { definition: await loadDefinition(path, 'default'), exportName: 'default' }
  } catch (error) {
    if (!ChatrailError.isInstance(error) || error.code !== 'DEFINITION_EXPORT_MISSING') throw error
    return { definition: await loadDefinition(path, 'definition'), exportName: 'definition' }
  }
}

const describe = (error: unknown): string => (ChatrailError.isInstance(error) ? `${error.message}${error.hint ? `\n  hint: ${error.hint}` : ''}` : error instanceof Error ? error.message : String(error))

export async function runExportCommand(args: readonly string[], io: CommandIo = defaultIo): Promise<number> {
  const parsed = parseCommandArgs(
    { command: 'export', positionals: true, options: { definition: { type: 'string' }, export: { type: 'string' }, store: { type: 'string' }, redact: { type: 'boolean' }, out: { type: 'string' } } },
    args,
  )
  if (parsed.kind === 'help') {
    io.stdout(exportUsage)
    return 0
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(parsed.message)
    return 2
  }
  const { values, positionals } = parsed
  const [conversationId, extra] = positionals
  const problem =
    conversationId === undefined ? 'give the conversation id'
    : extra !== undefined ? `unexpected argument ${JSON.stringify(extra)} (one conversation per export)`
    : !isIdentifier(conversationId) ? `${JSON.stringify(conversationId)} is not a conversation id (letters, digits and . _ : -)`
    : values.definition === undefined ? 'give the definition module: --definition <module> (the expectations are what it decides)'
    : values.store === undefined ? 'say where the conversation is: --store pglite:<dir> or --store postgres://…'
    : values.store === 'memory' ? '--store memory holds nothing another process wrote; use pglite:<dir> or postgres://…'
    : undefined
  if (problem !== undefined) {
    io.stderr(usageErrorText('export', problem))
    return 2
  }
  const { parseStoreSpec } = await import('./serve/serve-args.js')
  const spec = parseStoreSpec(values.store as string)
  if (typeof spec === 'string') {
    io.stderr(usageErrorText('export', spec))
    return 2
  }
  const modulePath = resolve(io.cwd, values.definition as string)
  if (!existsSync(modulePath)) {
    io.stderr(`chatrail export: no such file: ${modulePath}\n  hint: Give the path of the module that exports your defineChat result, e.g. src/bot.ts.`)
    return 1
  }
  let loaded: { definition: ChatDefinition; exportName: string }
  try {
    loaded = await loadNamed(modulePath, values.export)
  } catch (error) {
    io.stderr(`chatrail export: ${describe(error)}`)
    return 1
  }
  let store: ConversationStore | undefined
  try {
    const { openWarmStore } = await import('./serve/open-store.js')
    store = await openWarmStore(spec)
    const stored = await store.load(conversationId as string)
    if (!stored) {
      io.stderr(`chatrail export: there is no conversation ${JSON.stringify(conversationId)} in the store\n  hint: The devtools list (/devtools) shows the ids; the id is the chat's \`id\`.`)
      return 1
    }
    if (stored.definition.id !== loaded.definition.id) {
      io.stderr(`chatrail export: conversation ${conversationId} was written under definition "${stored.definition.id}", not "${loaded.definition.id}"\n  hint: Pass the module of "${stored.definition.id}" to --definition.`)
      return 1
    }
    if (!stored.messages.some((message) => message.role === 'user')) {
      io.stderr(`chatrail export: conversation ${conversationId} has no user message yet; a test needs at least one turn`)
      return 1
    }
    const out = values.out === undefined ? undefined : resolve(io.cwd, values.out)
    const from = out === undefined ? io.cwd : dirname(out)
    let module = relative(from, modulePath).split(sep).join('/')
    if (!module.startsWith('.')) module = `./${module}`
    const { exportConversation } = await import('../devtools/export-conversation.js')
    const exported = await exportConversation(loaded.definition as ChatDefinition<JsonObject>, stored, {
      module: { module, ...(loaded.exportName === 'default' ? {} : { export: loaded.exportName }) },
      redact: values.redact === true,
    })
    if (out === undefined) io.stdout(exported.yaml.replace(/\n$/, ''))
    else {
      mkdirSync(dirname(out), { recursive: true })
      writeFileSync(out, exported.yaml)
    }
    if (exported.keptTurns.length > 0) io.stderr(`chatrail export: kept as typed (no placeholder is decided the same way): turn${exported.keptTurns.length === 1 ? '' : 's'} ${exported.keptTurns.join(', ')}`)
    if (exported.changedTurns.length > 0) io.stderr(`chatrail export: the definition now decides turn${exported.changedTurns.length === 1 ? '' : 's'} ${exported.changedTurns.join(', ')} differently from the stored history (the file expects what it decides now)`)
    return 0
  } catch (error) {
    io.stderr(`chatrail export: ${describe(error)}`)
    return 1
  } finally {
    await store?.close().catch(() => undefined)
  }
}
