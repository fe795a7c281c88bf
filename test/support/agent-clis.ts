import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the real agent CLIs live for the end-to-end tests: a package of their own under
 * test/agents-e2e/ (Claude Code, Codex and OpenCode are ~840 MB that neither `npm start` nor the
 * unit tests need, so the project's own install leaves them out). `ensureAgentClis` installs them
 * there from that package's lockfile on first use; `npm test` calls it from its global setup.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const AGENTS_E2E_DIR = join(root, 'test', 'agents-e2e')
/** The folder the CLIs' executables are in: put it on PATH for a test that finds them by name. */
export const AGENT_BIN_DIR = join(AGENTS_E2E_DIR, 'node_modules', '.bin')

export type AgentCli = 'claude' | 'codex' | 'opencode'

export function agentBin(name: AgentCli): string {
  return join(AGENT_BIN_DIR, name)
}

/** True when the installed tree matches test/agents-e2e/package-lock.json (npm ci writes a copy of it). */
export function agentClisInstalled(): boolean {
  const installed = join(AGENTS_E2E_DIR, 'node_modules', '.package-lock.json')
  if (!existsSync(installed) || !(['claude', 'codex', 'opencode'] as const).every((name) => existsSync(agentBin(name)))) return false
  const wanted = JSON.parse(readFileSync(join(AGENTS_E2E_DIR, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> }
  const have = JSON.parse(readFileSync(installed, 'utf8')) as { packages: Record<string, { version?: string }> }
  return ['node_modules/@anthropic-ai/claude-code', 'node_modules/@openai/codex', 'node_modules/opencode-ai'].every(
    (key) => have.packages[key]?.version !== undefined && have.packages[key]?.version === wanted.packages[key]?.version,
  )
}

/**
 * Installs the CLIs with `npm ci` (the lockfile's exact versions, install scripts as the package's
 * `allowScripts` declares) unless they already are. Test runs start in parallel (every vitest run
 * calls this from its global setup), so each install happens in a private folder and its
 * node_modules is renamed into place in one step: a rename onto an existing tree fails, and then the
 * other run's install is the one kept. Throws with npm's output when the install fails, so a run
 * that needs the CLIs fails loudly instead of skipping their tests.
 */
export function ensureAgentClis(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  if (agentClisInstalled()) return
  log(`installing the agent CLIs for the end-to-end tests into ${AGENTS_E2E_DIR} (first run only)…`)
  const started = Date.now()
  const scratch = mkdtempSync(join(AGENTS_E2E_DIR, '.install-'))
  try {
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(AGENTS_E2E_DIR, file), join(scratch, file))
    const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: scratch, encoding: 'utf8', timeout: 15 * 60_000 })
    if (result.status !== 0) {
      throw new Error(`npm ci for the agent CLIs failed (exit ${String(result.status)}${result.error ? `, ${result.error.message}` : ''}):\n${result.stdout}${result.stderr}`)
    }
    const target = join(AGENTS_E2E_DIR, 'node_modules')
    if (!agentClisInstalled()) {
      rmSync(target, { recursive: true, force: true })
      try {
        renameSync(join(scratch, 'node_modules'), target)
      } catch (error) {
        // Another run renamed its tree in between: that one is as good.
        if (!agentClisInstalled()) throw error
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  if (!agentClisInstalled()) throw new Error(`the agent CLIs are still missing from ${AGENTS_E2E_DIR}/node_modules after npm ci`)
  log(`agent CLIs installed in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}
