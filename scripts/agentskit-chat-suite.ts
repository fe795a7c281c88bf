/**
 * Runs AgentsKit Chat's own define-chat suite against chatrail, through rename-only shims
 * (scripts/agentskit-shims/), and prints pass/fail per describe block. Not part of `npm test`:
 * the peer's code is never copied into this repository, only into a scratch folder under the
 * system temp directory, read from a checkout (or bare mirror) at a pinned commit.
 *
 *   npx tsx scripts/agentskit-chat-suite.ts --chat <agentskit-chat checkout or git dir> [--commit 9836963] [--keep] [--json]
 *
 * Exit code: 0 when the suite ran (whatever its results), 1 when it could not run, 2 for a usage mistake.
 * See docs/persistence.md § AgentsKit Chat's suite.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const PINNED_COMMIT = '9836963'
const SUITE = 'packages/chat/tests/define-chat.test.ts'
// What the suite imports from outside its own folder: the protocol package's fixtures (type imports erased).
const FIXTURES = 'packages/protocol/src/fixtures.ts'
const SESSION_BLOCK = 'deterministic conversation session'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const shims = join(repo, 'scripts', 'agentskit-shims')

interface Args {
  chat: string
  commit: string
  keep: boolean
  json: boolean
}

function usage(message: string): never {
  console.error(`${message}\nusage: npx tsx scripts/agentskit-chat-suite.ts --chat <agentskit-chat checkout or git dir> [--commit ${PINNED_COMMIT}] [--keep] [--json]`)
  process.exit(2)
}

function parseArgs(argv: readonly string[]): Args {
  const args: Partial<Args> = { commit: PINNED_COMMIT, keep: false, json: false }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    if (flag === '--keep') args.keep = true
    else if (flag === '--json') args.json = true
    else if (flag === '--chat' || flag === '--commit') {
      const value = argv[++i]
      if (value === undefined || value.startsWith('--')) usage(`${flag} needs a value.`)
      if (flag === '--chat') args.chat = value
      else if (!/^[0-9a-f]{7,40}$/.test(value)) usage(`--commit must be a commit hash (7 to 40 hex digits), got ${JSON.stringify(value)}.`)
      else args.commit = value
    } else usage(`unknown argument ${JSON.stringify(flag)}.`)
  }
  if (!args.chat) usage('--chat is required.')
  return args as Args
}

/** Reads `path` at `commit` from a git checkout or git directory (`git show`, arguments never through a shell). */
function reader(dir: string, commit: string): (path: string) => string {
  let isGit = false
  try {
    execFileSync('git', ['-C', dir, 'rev-parse', '--git-dir'], { stdio: 'pipe' })
    isGit = true
  } catch {
    isGit = false
  }
  if (!isGit) {
    console.error(`chatrail: ${dir} is not a git checkout; reading its files as they are (cannot check they are commit ${commit}).`)
    return (path) => readFileSync(join(dir, path), 'utf8')
  }
  try {
    execFileSync('git', ['-C', dir, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'pipe' })
  } catch {
    console.error(`chatrail: commit ${commit} is not in ${dir}; fetch it first (git -C ${dir} fetch origin ${commit}).`)
    process.exit(1)
  }
  return (path) => execFileSync('git', ['-C', dir, 'show', `${commit}:${path}`], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
}

/** The suite with its imports pointed at the shims (and the copied fixtures). */
function rewriteImports(source: string): string {
  const replacements: [string, string][] = [
    ["from '@agentskit/core'", `from '${join(shims, 'core.ts')}'`],
    ["from '../src/index.js'", `from '${join(shims, 'chat.ts')}'`],
    ["from '../../protocol/src/fixtures.js'", "from './fixtures.ts'"],
    ["import('../../protocol/src/index.js')", `import('${join(shims, 'chat.ts')}')`],
  ]
  let rewritten = source
  for (const [from, to] of replacements) {
    if (!rewritten.includes(from)) console.error(`chatrail: the suite no longer contains ${from}; the shims may need updating.`)
    rewritten = rewritten.split(from).join(to)
  }
  // the type-only `SessionSnapshot` of the protocol package is chatrail's envelope
  return rewritten.split(`import('${join(shims, 'chat.ts')}').SessionSnapshot`).join(`import('${join(repo, 'src', 'index.ts')}').SessionSnapshotEnvelope`)
}

interface AssertionResult {
  ancestorTitles: string[]
  title: string
  status: string
  failureMessages: string[]
}

function main(): void {
  const args = parseArgs(process.argv.slice(2))
  const read = reader(resolve(args.chat), args.commit)
  const scratch = mkdtempSync(join(tmpdir(), 'chatrail-agentskit-suite-'))
  try {
    writeFileSync(join(scratch, 'define-chat.test.ts'), rewriteImports(read(SUITE)))
    writeFileSync(join(scratch, 'fixtures.ts'), read(FIXTURES))
    symlinkSync(join(repo, 'node_modules'), join(scratch, 'node_modules'), 'dir')
    writeFileSync(join(scratch, 'vitest.config.mjs'), "export default { test: { include: ['define-chat.test.ts'], testTimeout: 20000 } }\n")
    const output = join(scratch, 'results.json')
    const run = spawnSync(join(repo, 'node_modules', '.bin', 'vitest'), ['run', '--root', scratch, '--config', join(scratch, 'vitest.config.mjs'), '--reporter=json', `--outputFile=${output}`], {
      cwd: scratch,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'test' },
    })
    if (!existsSync(output)) {
      console.error(`chatrail: vitest wrote no results.\n${run.stdout}\n${run.stderr}`)
      process.exit(1)
    }
    const report = JSON.parse(readFileSync(output, 'utf8')) as { testResults: { assertionResults: AssertionResult[]; message?: string }[] }
    const results = report.testResults.flatMap((file) => file.assertionResults)
    if (results.length === 0) {
      console.error(`chatrail: the suite did not load: ${report.testResults[0]?.message ?? run.stderr}`)
      process.exit(1)
    }
    const blocks = new Map<string, AssertionResult[]>()
    for (const result of results) {
      const block = result.ancestorTitles[0] ?? '(top level)'
      blocks.set(block, [...(blocks.get(block) ?? []), result])
    }
    const passed = (list: readonly AssertionResult[]): number => list.filter((result) => result.status === 'passed').length
    if (args.json) {
      console.log(JSON.stringify({ commit: args.commit, blocks: [...blocks].map(([block, list]) => ({ block, passed: passed(list), total: list.length, failing: list.filter((r) => r.status !== 'passed').map((r) => ({ title: r.title, reason: r.failureMessages[0]?.split('\n')[0] ?? r.status })) })) }, null, 2))
    } else {
      console.log(`AgentsKit Chat ${args.commit} ${SUITE} through scripts/agentskit-shims/\n`)
      for (const [block, list] of blocks) {
        console.log(`${passed(list) === list.length ? '✓' : '✗'} ${block}: ${passed(list)}/${list.length}`)
        for (const result of list) if (result.status !== 'passed') console.log(`    ✗ ${result.title}\n      ${(result.failureMessages[0] ?? result.status).split('\n')[0]}`)
      }
      const session = blocks.get(SESSION_BLOCK) ?? []
      const others = [...blocks].filter(([block]) => block !== SESSION_BLOCK).flatMap(([, list]) => list)
      console.log(`\nsession block: ${passed(session)}/${session.length}; the other blocks: ${passed(others)}/${others.length}`)
    }
  } finally {
    if (args.keep) console.error(`chatrail: scratch folder kept at ${scratch}`)
    else rmSync(scratch, { recursive: true, force: true })
  }
}

main()
