import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ClaudeRegistryEntry, RegistryLookup } from './registry.js'
import { findRegistryEntry } from './registry.js'

/**
 * Where Claude Code keeps a session's transcript, found through the CLI's own registry.
 */

/** The project folder name: every character of the absolute cwd outside [A-Za-z0-9] becomes "-". */
export function projectSlug(cwd: string): string {
  return resolve(cwd).replace(/[^A-Za-z0-9]/g, '-')
}

/** `<home>/.claude/projects/<slug>/<sessionId>.jsonl`. */
export function transcriptPathFor(options: { home: string; cwd: string; sessionId: string }): string {
  return join(options.home, '.claude', 'projects', projectSlug(options.cwd), `${options.sessionId}.jsonl`)
}

export interface LocatedTranscript {
  path: string
  /** Identity of the transcript file (its session id): a `/clear` starts a new one. */
  transcriptId: string
  sessionId: string
  /** False until the CLI writes the first line (a fresh session, or just after `/clear`). */
  exists: boolean
  /** The registry entry used; pass it to `readChat` so both agree on the session. */
  registry: ClaudeRegistryEntry
  registryPath: string
}

/**
 * The transcript of the newest live interactive Claude Code session in `cwd`: the newest registry
 * entry with a live pid and this cwd gives the session id, the cwd gives the project slug. The
 * path is returned before the file exists, because `/clear` switches the registry's session id at
 * once. `undefined` when no live session is registered (an empty `home` is always a miss).
 */
export async function locateTranscript(options: RegistryLookup): Promise<LocatedTranscript | undefined> {
  const found = await findRegistryEntry(options)
  if (found === undefined) return undefined
  const path = transcriptPathFor({ home: options.home, cwd: found.entry.cwd, sessionId: found.entry.sessionId })
  return {
    path,
    transcriptId: found.entry.sessionId,
    sessionId: found.entry.sessionId,
    exists: existsSync(path),
    registry: found.entry,
    registryPath: found.path,
  }
}
