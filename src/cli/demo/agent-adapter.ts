import type { AdapterFactory } from '../../contract/adapter.js'
import type { JsonObject } from '../../conversation/json.js'
import type { Route } from '../../conversation/routes.js'
import { createOfflineAdapter } from './offline-adapter.js'
import type { DemoAgentChoice } from './resolve-demo-agent.js'

/**
 * The adapter behind the demo's agentic fallback, for a resolved choice. The coding-agent
 * adapters are imported lazily, so the offline demo never loads them. The agents run in the
 * current directory with their safe defaults: Claude Code denies tool permission prompts, Codex
 * runs read-only.
 */
export async function loadAgentAdapter<Ctx extends JsonObject>(
  choice: DemoAgentChoice,
  routes: readonly Route<Ctx>[],
  cwd: string,
): Promise<AdapterFactory> {
  switch (choice.agent) {
    case 'offline':
      return createOfflineAdapter(routes)
    case 'claude-code': {
      const { claudeCodeAdapter } = await import('../../agents/claude-code/index.js')
      return claudeCodeAdapter({ cwd, ...(choice.bin === undefined ? {} : { bin: choice.bin }) })
    }
    case 'codex': {
      const { codexAdapter } = await import('../../agents/codex/index.js')
      return codexAdapter({ cwd, sandbox: 'read-only', skipGitRepoCheck: true, ...(choice.bin === undefined ? {} : { bin: choice.bin }) })
    }
    case 'opencode': {
      // OpenCode's own permission config decides which tools ask; unanswered asks wait in its run state.
      const { opencodeAdapter } = await import('../../agents/opencode/index.js')
      return opencodeAdapter({ cwd, ...(choice.bin === undefined ? {} : { bin: choice.bin }) })
    }
  }
}
