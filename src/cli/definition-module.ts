import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { ChatrailError } from '../contract/errors.js'
import type { ChatDefinition } from '../conversation/definition.js'
import { loadModuleDefinition } from '../testing/conversations/definition-loader.js'

/**
 * The `<definition module>` argument of `chatrail explain` and `chatrail graph`: a path relative to
 * the working directory, whose default export (or export named `definition`) is a `defineChat`
 * result. Resolves with the definition, or with the error text to print (exit 1).
 */
export async function loadDefinitionArgument(command: string, module: string, cwd: string): Promise<ChatDefinition | { error: string }> {
  const path = resolve(cwd, module)
  if (!existsSync(path)) return { error: `chatrail ${command}: no such file: ${path}\n  hint: Give the path of the module that exports your defineChat result, e.g. src/bot.ts.` }
  try {
    return await loadModuleDefinition(path)
  } catch (error) {
    return { error: `chatrail ${command}: ${ChatrailError.isInstance(error) ? error.toString() : error instanceof Error ? error.message : String(error)}` }
  }
}
