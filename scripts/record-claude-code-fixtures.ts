/**
 * Regenerates test/fixtures/claude-code/ by playing the named scenarios of
 * test/agents/claude-code/cli-scenarios.ts against the real Claude Code CLI
 * (node_modules/.bin/claude) and the scripted model server, in throwaway HOMEs.
 *
 * Each snapshot directory holds the transcript file(s) under their real `<sessionId>.jsonl`
 * names, `registry.json` (the CLI's `~/.claude/sessions/<pid>.json` at that moment; absent for
 * headless runs, which write none), `signals/` (what the live-signal hooks had written: use it as
 * `runtimeDir` with run id `fixture`) and `scenario.json`.
 *
 * Usage: tsx scripts/record-claude-code-fixtures.ts [scenario-name ...]
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setupLiveSignals } from '../src/agents/claude-code/live-signals.js'
import { parseRegistryEntry } from '../src/agents/claude-code/registry.js'
import { scenarios } from '../test/agents/claude-code/cli-scenarios.js'
import type { Scenario, SnapReady } from '../test/agents/claude-code/cli-scenarios.js'
import { startAnthropicServer } from '../test/support/anthropic-server.js'
import { CLAUDE_BIN, listTranscripts, makeClaudeHome, poll, runHeadless, startInteractive } from '../test/support/claude-cli.js'
import type { ClaudeHome } from '../test/support/claude-cli.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outRoot = join(root, 'test', 'fixtures', 'claude-code')
export const FIXTURE_RUN_ID = 'fixture'

const cliVersion = execFileSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8' }).trim()

async function record(scenario: Scenario): Promise<void> {
  const home = makeClaudeHome()
  const runtimeDir = join(home.home, 'runtime')
  const signals = setupLiveSignals({ runId: FIXTURE_RUN_ID, runtimeDir })
  const server = await startAnthropicServer({ turns: scenario.turns, ...(scenario.fallback ? { fallback: scenario.fallback } : {}) })
  try {
    if (scenario.mode === 'headless') {
      const result = await runHeadless({ home, serverUrl: server.url, prompt: scenario.prompt, args: [...signals.args, ...(scenario.args ?? [])] })
      // An error turn exits 1; a run with no result event at all is a failed recording.
      if (!result.events.some((e) => e.type === 'result')) throw new Error(`claude -p exited ${String(result.exitCode)} without a result: ${result.stderr.slice(-500)}`)
      save(scenario.name, scenario.description ?? scenario.name, scenario, home, runtimeDir, undefined)
      return
    }
    const cli = startInteractive({ home, serverUrl: server.url, args: [...signals.args, ...(scenario.args ?? [])] })
    try {
      await cli.waitFor(/forshortcuts|planmodeon/, { timeoutMs: 30_000 })
      await cli.submit(scenario.prompt)
      await scenario.drive?.({
        cli,
        snap: async (name, description, ready) => {
          await waitReady(home, runtimeDir, cli.pid, ready)
          save(name, description, scenario, home, runtimeDir, cli.pid)
        },
      })
    } finally {
      await cli.kill()
    }
  } finally {
    await server.close()
    home.cleanup()
  }
}

async function waitReady(home: ClaudeHome, runtimeDir: string, pid: number, ready: SnapReady = {}): Promise<void> {
  await poll(`snapshot conditions ${JSON.stringify(ready)}`, () => {
    if (ready.registryStatus !== undefined) {
      const entry = readEntry(home, pid)
      if (entry?.status !== ready.registryStatus) return undefined
    }
    if (ready.spool === true && !existsSync(join(runtimeDir, 'dialogs', `${FIXTURE_RUN_ID}.json`))) return undefined
    if (ready.transcriptHas !== undefined && !listTranscripts(home).some((f) => readFileSync(f, 'utf8').includes(ready.transcriptHas as string))) return undefined
    return true
  }, 30_000)
  // Let trailing metadata lines (last-prompt, turn_duration) land.
  await new Promise((done) => setTimeout(done, 600))
}

function readEntry(home: ClaudeHome, pid: number): ReturnType<typeof parseRegistryEntry> {
  const path = join(home.sessionsDir, `${pid}.json`)
  return existsSync(path) ? parseRegistryEntry(readFileSync(path, 'utf8')) : undefined
}

function save(name: string, description: string, scenario: Scenario, home: ClaudeHome, runtimeDir: string, pid: number | undefined): void {
  const dir = join(outRoot, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const transcripts = listTranscripts(home)
  for (const file of transcripts) cpSync(file, join(dir, basename(file)))
  const registryPath = pid === undefined ? undefined : join(home.sessionsDir, `${pid}.json`)
  const entry = pid === undefined ? undefined : readEntry(home, pid)
  if (registryPath !== undefined && existsSync(registryPath)) cpSync(registryPath, join(dir, 'registry.json'))
  for (const sub of ['dialogs', 'state']) {
    const from = join(runtimeDir, sub)
    if (!existsSync(from)) continue
    for (const file of readdirSync(from).filter((f) => f.endsWith('.json'))) {
      mkdirSync(join(dir, 'signals', sub), { recursive: true })
      cpSync(join(from, file), join(dir, 'signals', sub, file))
    }
  }
  // The session the CLI is on: the registry's, else the only/newest transcript.
  const current = entry !== undefined ? `${entry.sessionId}.jsonl` : basename(transcripts.sort()[transcripts.length - 1] ?? '')
  const meta = { name, description, scenario: scenario.name, mode: scenario.mode, args: scenario.args ?? [], cli: cliVersion, transcript: current, transcripts: transcripts.map((f) => basename(f)), home: home.home, runId: FIXTURE_RUN_ID }
  writeFileSync(join(dir, 'scenario.json'), `${JSON.stringify(meta, null, 2)}\n`)
  console.log(`recorded ${name}`)
}

const wanted = new Set(process.argv.slice(2))
let failed = 0
for (const scenario of scenarios) {
  if (wanted.size > 0 && !wanted.has(scenario.name)) continue
  try {
    await record(scenario)
  } catch (error) {
    failed += 1
    console.error(`scenario ${scenario.name} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
// The index lists every snapshot on disk, so recording a few scenarios keeps the others' rows.
const rows = readdirSync(outRoot, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(outRoot, d.name, 'scenario.json')))
  .map((d) => JSON.parse(readFileSync(join(outRoot, d.name, 'scenario.json'), 'utf8')) as { name: string; description: string; cli: string })
  .sort((a, b) => a.name.localeCompare(b.name))
const lines = [
  '# Claude Code fixtures (recorded)',
  '',
  `Recorded with ${cliVersion} by \`npm run fixtures:record\` (scripts/record-claude-code-fixtures.ts; \`tsx scripts/record-claude-code-fixtures.ts <scenario…>\` for some) against the scripted model server in test/support/anthropic-server.ts. Each directory: transcript(s) \`<sessionId>.jsonl\`, \`registry.json\` (interactive runs), \`signals/\` (live-signal hook output, run id \`fixture\`), \`scenario.json\`.`,
  '',
  '| fixture | what it shows |',
  '|---|---|',
  ...rows.map((row) => `| \`${row.name}\` | ${row.description} |`),
  '',
]
writeFileSync(join(outRoot, 'README.md'), lines.join('\n'))
if (failed > 0) process.exitCode = 1
