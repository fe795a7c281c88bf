import { pathToFileURL } from 'node:url'
import { ChatrailError } from '../../contract/errors.js'
import type { ChatDefinition } from '../../index.js'
import { assertValidDefinition } from '../../conversation/definition-check.js'
import { closestName } from '../../conversation/did-you-mean.js'

/** Imports a module by absolute path or bare specifier and returns its namespace. */
export type ModuleImporter = (specifier: string) => Promise<Record<string, unknown>>

const typescriptFile = /\.(?:c|m)?tsx?$/

/**
 * The default importer. Plain `import()` first: under vitest, under tsx (`npm start` in a checkout)
 * or for `.js` definitions it just works. When Node itself cannot load a TypeScript file (no type
 * stripping in Node 20), tsx's loader is registered once for the process with
 * `register()` from `tsx/esm/api`, and the import retried. `register` rather than `tsImport`:
 * `tsImport` loads the definition's whole import graph a second time under a namespace, so the
 * definition would be built by a second copy of chatrail, not the one running the conversation.
 */
export const importModule: ModuleImporter = async (specifier) => {
  const url = specifier.startsWith('/') ? pathToFileURL(specifier).href : specifier
  try {
    return (await import(url)) as Record<string, unknown>
  } catch (error) {
    if (!needsTypeScriptLoader(error, specifier)) throw error
  }
  await registerTsx()
  // A failed import is cached per URL, so the retry uses a fresh one.
  return (await import(`${url}${url.includes('?') ? '&' : '?'}chatrail-tsx`)) as Record<string, unknown>
}

function needsTypeScriptLoader(error: unknown, specifier: string): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  // ERR_MODULE_NOT_FOUND covers a .ts module importing its siblings as `./x.js`, the NodeNext convention.
  return code === 'ERR_UNKNOWN_FILE_EXTENSION' || (code === 'ERR_MODULE_NOT_FOUND' && typescriptFile.test(specifier))
}

let tsxRegistered: Promise<void> | undefined

function registerTsx(): Promise<void> {
  tsxRegistered ??= (async () => {
    let api: { register: () => unknown }
    // A variable specifier keeps the bundler from inlining tsx: it stays an optional install.
    const tsxApi = 'tsx/esm/api'
    try {
      api = (await import(tsxApi)) as { register: () => unknown }
    } catch (cause) {
      tsxRegistered = undefined
      throw new ChatrailError({
        code: 'TYPESCRIPT_LOADER_MISSING',
        message: 'this definition module is TypeScript, and Node cannot load TypeScript on its own',
        hint: 'Install tsx (`npm i -D tsx`) so `chatrail test` can load it, run the CLI through tsx, or point `definition.module` at compiled JavaScript.',
        cause,
      })
    }
    api.register()
  })()
  return tsxRegistered
}

function isChatDefinition(value: unknown): value is ChatDefinition {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as { id?: unknown; conversation?: unknown; chat?: unknown }
  return typeof candidate.id === 'string' && typeof candidate.conversation === 'object' && candidate.conversation !== null && typeof candidate.chat === 'object'
}

/**
 * Loads `exportName` from `module` and checks it is a chat definition, with an error naming the
 * module, the export and the exports that do exist.
 */
export async function loadDefinition(module: string, exportName: string, importer: ModuleImporter = importModule): Promise<ChatDefinition> {
  let namespace: Record<string, unknown>
  try {
    namespace = await importer(module)
  } catch (cause) {
    if (ChatrailError.isInstance(cause)) throw cause
    throw new ChatrailError({
      code: 'DEFINITION_MODULE_FAILED',
      message: `cannot load definition module ${module}: ${cause instanceof Error ? cause.message : String(cause)}`,
      hint: 'Check `definition.module` (relative to the conversation file) and that the module loads on its own.',
      cause,
    })
  }
  const value = namespace[exportName]
  if (isChatDefinition(value)) {
    // whatever NODE_ENV (`chatrail serve`, `explain`, `test`, `export` load through here): a
    // production `defineChat` skips the full check (issue 32), the CLI never does
    assertValidDefinition(value)
    return value
  }
  const exported = Object.keys(namespace).filter((key) => isChatDefinition(namespace[key]))
  const close = closestName(exportName, Object.keys(namespace))
  const suggestion = close !== undefined ? `Did you mean "${close}"? ` : ''
  throw new ChatrailError({
    code: 'DEFINITION_EXPORT_MISSING',
    message:
      value === undefined
        ? `module ${module} has no export "${exportName}"`
        : `export "${exportName}" of ${module} is not a chat definition (expected the result of defineChat)`,
    hint: `${suggestion}${exported.length > 0 ? `Definitions exported there: ${exported.join(', ')}.` : 'That module exports no chat definition; export the result of defineChat.'}`,
  })
}

/**
 * A definition module's default export, or else its export named `definition` (how `chatrail
 * explain` and `chatrail graph` read `<module>`). `module` is an absolute path or a bare specifier.
 */
export async function loadModuleDefinition(module: string, importer: ModuleImporter = importModule): Promise<ChatDefinition> {
  try {
    return await loadDefinition(module, 'default', importer)
  } catch (error) {
    if (!ChatrailError.isInstance(error) || error.code !== 'DEFINITION_EXPORT_MISSING') throw error
    try {
      return await loadDefinition(module, 'definition', importer)
    } catch (second) {
      if (!ChatrailError.isInstance(second) || second.code !== 'DEFINITION_EXPORT_MISSING') throw second
      throw new ChatrailError({
        code: 'DEFINITION_EXPORT_MISSING',
        message: `${module} exports no chat definition as its default export or as \`definition\``,
        hint: second.hint ?? 'Export the result of defineChat: `export default defineChat({ … })`.',
      })
    }
  }
}
