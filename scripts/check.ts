import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// `npm test`'s first step: the typecheck and the lint, side by side. Each is one single-threaded
// process, so on a two-core machine running them together takes the longer one's time instead of
// their sum. Both keep a cache under node_modules/.cache/chatrail (tsc's incremental build info,
// ESLint's per-file results keyed by content), so a second run only rechecks what changed; a fresh
// clone has no cache and checks everything. Their output is held back and printed whole, one block
// per check, so the two never interleave.
//
// `npm test` adds `--with-agent-clis`: the agent CLIs the end-to-end tests drive are installed (on
// first use, into test/agents-e2e) at the same time, instead of in vitest's global setup while
// every worker waits; that install is mostly network and disk, so it costs the checks little.

const root = fileURLToPath(new URL('..', import.meta.url))
const cache = join(root, 'node_modules', '.cache', 'chatrail')
mkdirSync(cache, { recursive: true })

interface Check {
  name: string
  args: string[]
}

const checks: Check[] = [
  {
    name: 'typecheck (tsc)',
    args: [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', join(cache, 'tsconfig.tsbuildinfo')],
  },
  {
    name: 'lint (eslint)',
    args: [join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '.', '--cache', '--cache-strategy', 'content', '--cache-location', join(cache, 'eslint')],
  },
]
if (process.argv.includes('--with-agent-clis') && process.env.CHATRAIL_NO_AGENT_CLIS !== '1') {
  checks.push({
    name: 'agent CLIs (test/agents-e2e)',
    args: ['--import', 'tsx', '--eval', "import('./test/support/agent-clis.ts').then((m) => m.ensureAgentClis((line) => console.log(line)))"],
  })
}

interface Outcome {
  check: Check
  code: number | null
  output: string
  seconds: number
}

function run(check: Check): Promise<Outcome> {
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, check.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', (error) => resolve({ check, code: 1, output: `${output}${String(error)}\n`, seconds: (performance.now() - started) / 1000 }))
    child.on('close', (code) => resolve({ check, code, output, seconds: (performance.now() - started) / 1000 }))
  })
}

const outcomes = await Promise.all(checks.map(run))
for (const { check, code, output, seconds } of outcomes) {
  const verdict = code === 0 ? 'passed' : `failed (exit ${code ?? 'by signal'})`
  process.stdout.write(`${check.name}: ${verdict} in ${seconds.toFixed(1)} s\n`)
  if (output.trim() !== '') process.stdout.write(`${output.trimEnd()}\n`)
}
process.exitCode = outcomes.every((outcome) => outcome.code === 0) ? 0 : 1
