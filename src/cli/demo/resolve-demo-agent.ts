import { ChatrailError } from '../../contract/errors.js'
import { probeClaudeCode, probeCodex, probeOpencode } from './agent-probe.js'
import type { ProbeOptions, ProbeResult } from './agent-probe.js'
import { findExecutable } from './find-executable.js'

/**
 * Which agent answers the demo's unmatched input. Forced (`--agent`, or `CHATRAIL_DEMO_AGENT`):
 * no probe, but a forced CLI must be on PATH. Automatic: Claude Code if `claude` is on PATH and
 * answers a probe, else Codex if `codex` does, else OpenCode if `opencode` does, else the offline
 * adapter. The probes run at once under one deadline, so choosing never takes longer than
 * `timeoutMs`; the later ones are cancelled as soon as an earlier one answers.
 */

export type DemoAgent = 'claude-code' | 'codex' | 'opencode' | 'offline'
export const demoAgents: readonly DemoAgent[] = ['claude-code', 'codex', 'opencode', 'offline']

export interface DemoAgentChoice {
  agent: DemoAgent
  /** The CLI that will run (absent for offline). */
  bin?: string
  /** How the choice was made, printed before the demo starts: a line, then one per unanswered probe. */
  reason: string
}

export interface ResolveDemoAgentOptions {
  requested: DemoAgent | 'auto'
  env: NodeJS.ProcessEnv
  cwd: string
  timeoutMs: number
  /** Replaceable for tests of the decision itself; the real probes by default. */
  probes?: { claudeCode: typeof probeClaudeCode; codex: typeof probeCodex; opencode?: typeof probeOpencode }
}

const binaries: Record<Exclude<DemoAgent, 'offline'>, string> = { 'claude-code': 'claude', codex: 'codex', opencode: 'opencode' }
const installHints: Record<Exclude<DemoAgent, 'offline'>, string> = {
  'claude-code': 'install Claude Code (npm i -g @anthropic-ai/claude-code) or run with --agent offline',
  codex: 'install Codex (npm i -g @openai/codex) or run with --agent offline',
  opencode: 'install OpenCode (npm i -g opencode-ai) or run with --agent offline',
}

export async function resolveDemoAgent(options: ResolveDemoAgentOptions): Promise<DemoAgentChoice> {
  const { requested, env } = options
  if (requested === 'offline') return { agent: 'offline', reason: 'offline adapter (chosen with --agent offline)' }
  if (requested !== 'auto') {
    const bin = findExecutable(binaries[requested], env.PATH)
    if (bin === undefined) {
      throw new ChatrailError({
        code: 'DEMO_AGENT_NOT_FOUND',
        message: `--agent ${requested}: \`${binaries[requested]}\` is not on PATH`,
        hint: installHints[requested],
      })
    }
    return { agent: requested, bin, reason: `${requested} (chosen with --agent ${requested}, not probed)` }
  }

  const probes = options.probes ?? { claudeCode: probeClaudeCode, codex: probeCodex, opencode: probeOpencode }
  const claudeBin = findExecutable('claude', env.PATH)
  const codexBin = findExecutable('codex', env.PATH)
  const codexAbort = new AbortController()
  const opencodeBin = findExecutable('opencode', env.PATH)
  const opencodeAbort = new AbortController()
  const base: ProbeOptions = { timeoutMs: options.timeoutMs, env, cwd: options.cwd }
  const missing = (name: string): Promise<ProbeResult> =>
    Promise.resolve({ answers: false, detail: `\`${name}\` not on PATH`, durationMs: 0 })

  const claude = claudeBin === undefined ? missing('claude') : probes.claudeCode(claudeBin, base)
  const codex = codexBin === undefined ? missing('codex') : probes.codex(codexBin, { ...base, signal: codexAbort.signal })
  const probeOpencodeCli = probes.opencode ?? probeOpencode
  const opencode = opencodeBin === undefined ? missing('opencode') : probeOpencodeCli(opencodeBin, { ...base, signal: opencodeAbort.signal })
  const claudeResult = await claude
  if (claudeResult.answers && claudeBin !== undefined) {
    codexAbort.abort()
    opencodeAbort.abort()
    return { agent: 'claude-code', bin: claudeBin, reason: `claude-code (claude ${claudeResult.detail})` }
  }
  const codexResult = await codex
  if (codexResult.answers && codexBin !== undefined) {
    opencodeAbort.abort()
    return { agent: 'codex', bin: codexBin, reason: `codex (codex ${codexResult.detail})\n  claude: ${claudeResult.detail}` }
  }
  const opencodeResult = await opencode
  if (opencodeResult.answers && opencodeBin !== undefined) {
    return { agent: 'opencode', bin: opencodeBin, reason: `opencode (opencode ${opencodeResult.detail})\n  claude: ${claudeResult.detail}\n  codex: ${codexResult.detail}` }
  }
  return {
    agent: 'offline',
    reason: `offline adapter (no agent answered)\n  claude: ${claudeResult.detail}\n  codex: ${codexResult.detail}\n  opencode: ${opencodeResult.detail}`,
  }
}
