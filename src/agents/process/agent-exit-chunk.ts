import type { StreamChunk } from '../../contract/stream.js'
import type { AgentProcessExit } from './agent-process.js'
import { agentErrorChunk } from './agent-error-chunk.js'

/**
 * What an agent CLI's exit means when it came before the turn's terminal event: always one `error`
 * chunk. A binary that could not be started names the fix (`installHint`); a CLI that exited (with
 * any code, or a signal) without its result carries the tail of its stderr. Pure.
 */
export interface AgentIdentity {
  /** Shown in messages: "Claude Code", "Codex". */
  displayName: string
  /** Error code prefix: `CLAUDE_CODE`, `CODEX`. */
  codePrefix: string
  /** How to install the CLI, shown when the binary is missing. */
  installHint: string
}

export function exitErrorChunk(exit: AgentProcessExit, agent: AgentIdentity, bin: string): StreamChunk {
  if (exit.kind === 'spawn-failed') {
    if (exit.code === 'ENOENT') {
      return agentErrorChunk({
        code: `${agent.codePrefix}_NOT_FOUND`,
        message: `The ${agent.displayName} CLI "${bin}" was not found (spawn ENOENT).`,
        hint: `${agent.installHint} Or pass \`bin\` with the path to the executable.`,
        metadata: { bin },
      })
    }
    return agentErrorChunk({
      code: `${agent.codePrefix}_SPAWN_FAILED`,
      message: `The ${agent.displayName} CLI "${bin}" could not be started: ${exit.message}`,
      hint: exit.code === 'EACCES' ? `Make "${bin}" executable, or pass \`bin\` with the right path.` : `Check \`bin\` and \`cwd\`.`,
      metadata: { bin, errno: exit.code },
    })
  }
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`
  const stderr = exit.stderr === '' ? '' : `\n${exit.stderr}`
  return agentErrorChunk({
    code: `${agent.codePrefix}_EXITED`,
    message: `${agent.displayName} ${how} before the turn finished.${stderr}`,
    metadata: { exitCode: exit.code, signal: exit.signal, stderr: exit.stderr },
  })
}
