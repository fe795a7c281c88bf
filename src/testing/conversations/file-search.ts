import { readdirSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { ChatrailError } from '../../contract/errors.js'

/**
 * Finds conversation files. Node 20 has no `fs.glob`, so this is a small glob of its own:
 * `*` and `?` within a path segment, `**` across segments, `{a,b}` alternatives. A directory
 * means every `*.conv.yaml` / `*.conv.yml` below it; a plain path must exist. `node_modules` and
 * dot-directories are never walked. Synchronous, because vitest collects tests synchronously.
 */

const conversationFile = /\.conv\.ya?ml$/
const magic = /[*?{]/

export function findConversationFiles(patterns: string | readonly string[], cwd: string = process.cwd()): string[] {
  const found = new Set<string>()
  for (const pattern of typeof patterns === 'string' ? [patterns] : patterns) {
    const matches = magic.test(pattern) ? globFiles(pattern, cwd) : literalFiles(pattern, cwd)
    if (matches.length === 0) {
      throw new ChatrailError({
        code: 'NO_CONVERSATION_FILES',
        message: `no conversation files match ${JSON.stringify(pattern)} (from ${cwd})`,
        hint: 'Conversation files end in .conv.yaml; pass a file, a directory or a glob such as "examples/**/*.conv.yaml".',
      })
    }
    for (const file of matches) found.add(file)
  }
  return [...found].sort()
}

function literalFiles(pattern: string, cwd: string): string[] {
  const path = resolve(cwd, pattern)
  let stats
  try {
    stats = statSync(path)
  } catch {
    return []
  }
  if (stats.isDirectory()) return walk(path).filter((file) => conversationFile.test(file))
  return [path]
}

function globFiles(pattern: string, cwd: string): string[] {
  const normalized = pattern.split(sep).join('/')
  const segments = normalized.split('/')
  const firstMagic = segments.findIndex((segment) => magic.test(segment))
  const baseSegments = segments.slice(0, firstMagic)
  const base = baseSegments.length === 0 ? (isAbsolute(normalized) ? '/' : cwd) : resolve(cwd, baseSegments.join('/') || '/')
  const matcher = globToRegExp(segments.slice(firstMagic).join('/'))
  let stats
  try {
    stats = statSync(base)
  } catch {
    return []
  }
  if (!stats.isDirectory()) return []
  return walk(base).filter((file) => matcher.test(relative(base, file).split(sep).join('/')))
}

/** A glob (relative, `/`-separated) as an anchored regular expression. Pure. */
export function globToRegExp(glob: string): RegExp {
  let source = ''
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] ?? ''
    if (char === '*' && glob[index + 1] === '*') {
      const slash = glob[index + 2] === '/'
      source += slash ? '(?:.*/)?' : '.*'
      index += slash ? 2 : 1
    } else if (char === '*') source += '[^/]*'
    else if (char === '?') source += '[^/]'
    else if (char === '{') {
      const close = glob.indexOf('}', index)
      if (close < 0) source += '\\{'
      else {
        source += `(?:${glob.slice(index + 1, close).split(',').map(escapeRegExp).join('|')})`
        index = close
      }
    } else source += escapeRegExp(char)
  }
  return new RegExp(`^${source}$`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function walk(directory: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const path = join(directory, entry.name)
    if (entry.isDirectory()) files.push(...walk(path))
    else if (entry.isFile()) files.push(path)
  }
  return files
}
