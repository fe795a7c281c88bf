import type { AdapterFactory } from '../../contract/adapter.js'
import type { JsonObject } from '../../conversation/json.js'
import type { Route } from '../../conversation/routes.js'
import { createOfflineAdapter } from './offline-adapter.js'
import type { DemoAgentChoice } from './resolve-demo-agent.js'
import type { AgentPermissionRequest, AgentPermissionVerdict } from '../../conversation/permission-confirmations.js'

/**
 * Where a coding agent's permission requests go (`chatrail serve`: confirmation records per
 * conversation, serve/serve-permissions.ts). Without it, the safe defaults below.
 */
export interface AgentPermissionGate {
  readonly ask: (request: AgentPermissionRequest) => Promise<AgentPermissionVerdict>
  readonly answer: (requestId: string, allowed: boolean, caller: string, reason?: string) => Promise<unknown> | undefined
  readonly confirmations: { readonly sessionId: string }
}

/**
 * The adapter behind the demo's agentic fallback, for a resolved choice. The coding-agent
 * adapters are imported lazily, so the offline demo never loads them. The agents run in the
 * current directory with their safe defaults: Claude Code denies tool permission prompts, Codex
 * runs read-only. With `permissions`, Claude Code's and OpenCode's permission prompts are asked
 * through it instead of denied (Claude Code) or left to the agent's own dialog (OpenCode).
 */
export async function loadAgentAdapter<Ctx extends JsonObject>(
  choice: DemoAgentChoice,
  routes: readonly Route<Ctx>[],
  cwd: string,
  permissions?: AgentPermissionGate,
): Promise<AdapterFactory> {
  switch (choice.agent) {
    case 'offline':
      return createOfflineAdapter(routes)
    case 'claude-code': {
      const { claudeCodeAdapter, permissionRequestsThrough } = await import('../../agents/claude-code/index.js')
      return claudeCodeAdapter({ cwd, ...(choice.bin === undefined ? {} : { bin: choice.bin }), ...(permissions ? { onPermissionRequest: permissionRequestsThrough(permissions) } : {}) })
    }
    case 'codex': {
      const { codexAdapter } = await import('../../agents/codex/index.js')
      return codexAdapter({ cwd, sandbox: 'read-only', skipGitRepoCheck: true, ...(choice.bin === undefined ? {} : { bin: choice.bin }) })
    }
    case 'opencode': {
      // OpenCode's own permission config decides which tools ask; unanswered asks wait in its run state.
      const { opencodeAdapter } = await import('../../agents/opencode/index.js')
      return opencodeAdapter({ cwd, ...(choice.bin === undefined ? {} : { bin: choice.bin }), ...(permissions ? { permissions } : {}) })
    }
  }
}
