import { parseArgs } from 'node:util'
import type { RouterAgent } from './router.js'

/** `[--codex] [--cwd DIR] [--bin PATH]`: which agent, where, and which binary. Throws on unknown flags. */
export function parseRouterArgs(argv: readonly string[], defaultCwd: string): { agent: RouterAgent; cwd: string; bin?: string } {
  const { values } = parseArgs({
    args: [...argv],
    options: { codex: { type: 'boolean', default: false }, cwd: { type: 'string' }, bin: { type: 'string' } },
    allowPositionals: false,
    strict: true,
  })
  return { agent: values.codex ? 'codex' : 'claude-code', cwd: values.cwd ?? defaultCwd, ...(values.bin !== undefined ? { bin: values.bin } : {}) }
}
