/**
 * Regenerates test/fixtures/codex/ from the real Codex CLI (node_modules/.bin/codex) driven by the
 * scripted Responses server: one rollout (and its `codex exec --json` captures) per scenario, plus
 * manifest.json naming the CLI version and what each run exited with.
 *
 *   npx tsx scripts/record-codex-fixtures.ts            # every scenario
 *   npx tsx scripts/record-codex-fixtures.ts tool-run   # some of them
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { recordScenario, scenarioNames } from '../test/agents/codex/codex-scenarios.js'
import type { ScenarioName } from '../test/agents/codex/codex-scenarios.js'
import { codexAvailable, codexBin } from '../test/support/codex-cli.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'test/fixtures/codex')

async function main(): Promise<void> {
  if (!codexAvailable()) throw new Error(`The Codex CLI is not installed at ${codexBin}; run npm install first.`)
  const asked = process.argv.slice(2)
  const unknown = asked.filter((name) => !(scenarioNames as readonly string[]).includes(name))
  if (unknown.length > 0) throw new Error(`Unknown scenario ${unknown.join(', ')}; known: ${scenarioNames.join(', ')}.`)
  const chosen = (asked.length > 0 ? asked : scenarioNames) as ScenarioName[]
  const cliVersion = execFileSync(codexBin, ['--version'], { encoding: 'utf8' }).trim()
  mkdirSync(outDir, { recursive: true })
  const manifestPath = join(outDir, 'manifest.json')
  const manifest = readManifest(manifestPath)
  for (const name of chosen) {
    const started = Date.now()
    const recording = await recordScenario(name)
    if (recording.problems.length > 0) throw new Error(`${name}: the scripted server saw unexpected requests: ${recording.problems.join('; ')}`)
    writeFileSync(join(outDir, `${name}.rollout.jsonl`), recording.rollout)
    const execFiles = recording.exec.map((stdout, index) => {
      const file = recording.exec.length === 1 ? `${name}.exec.jsonl` : `${name}.exec-${index + 1}.jsonl`
      writeFileSync(join(outDir, file), stdout)
      return file
    })
    manifest.scenarios[name] = {
      rollout: `${name}.rollout.jsonl`,
      rolloutFileName: recording.rolloutFileName,
      exec: execFiles,
      exitCodes: recording.exitCodes,
      modelRequests: recording.requests,
    }
    console.log(`${name}: ${recording.rollout.split('\n').length - 1} rollout lines, exit ${recording.exitCodes.join('/')}, ${Date.now() - started} ms`)
  }
  if (chosen.includes('resume')) compressResume()
  manifest.cliVersion = cliVersion
  manifest.recordedAt = new Date().toISOString()
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
}

/**
 * A `.jsonl.zst` twin of the resume rollout (real zstd frames, from the zstd CLI: Codex 0.171 only
 * compresses rollouts in the background, behind a feature still under development).
 */
function compressResume(): void {
  const source = join(outDir, 'resume.rollout.jsonl')
  try {
    execFileSync('zstd', ['-q', '-f', '-19', source, '-o', `${source}.zst`])
    console.log('resume: wrote resume.rollout.jsonl.zst')
  } catch {
    console.warn('resume: the zstd CLI is not installed; resume.rollout.jsonl.zst was not regenerated.')
  }
}

interface Manifest {
  cliVersion: string
  recordedAt: string
  scenarios: Record<string, unknown>
}

function readManifest(path: string): Manifest {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest
  } catch {
    return { cliVersion: '', recordedAt: '', scenarios: {} }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
