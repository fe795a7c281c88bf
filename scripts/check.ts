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
//
// and `--vitest <args…>`: vitest starts as soon as the agent CLIs are in place, beside the typecheck
// and the lint instead of after them (issue 27: tsc takes 40–60 s on a fresh clone, during which
// vitest's workers, waiting on browsers and child processes more than on the CPU, can run). Its
// output streams as it comes; the checks' blocks are printed when it ends, and the run fails if any
// of them failed.

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

/** vitest with the terminal as its own (its progress streams as it comes), resolved with its exit code. */
function runVitest(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), ...args], { cwd: root, stdio: 'inherit' })
    child.on('error', () => resolve(1))
    child.on('close', (code) => resolve(code))
  })
}

const vitestFlag = process.argv.indexOf('--vitest')
const vitestArgs = vitestFlag === -1 ? undefined : process.argv.slice(vitestFlag + 1)
const running = checks.map((check) => ({ check, outcome: run(check) }))
// The end-to-end suites need the agent CLIs installed before their global setup looks for them.
const agentClis = running.find(({ check }) => check.name.startsWith('agent CLIs'))
const vitestCode = vitestArgs === undefined ? 0 : await (agentClis?.outcome ?? Promise.resolve()).then(() => runVitest(vitestArgs))
const outcomes = await Promise.all(running.map(({ outcome }) => outcome))
for (const { check, code, output, seconds } of outcomes) {
  const verdict = code === 0 ? 'passed' : `failed (exit ${code ?? 'by signal'})`
  process.stdout.write(`${check.name}: ${verdict} in ${seconds.toFixed(1)} s\n`)
  if (output.trim() !== '') process.stdout.write(`${output.trimEnd()}\n`)
}
process.exitCode = outcomes.every((outcome) => outcome.code === 0) && vitestCode === 0 ? 0 : 1
