import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AGENT_BIN_DIR } from '../support/agent-clis.js'
import { startAnthropicServer } from '../support/anthropic-server.js'
import type { AnthropicServer } from '../support/anthropic-server.js'
import { CLAUDE_BIN, claudeEnv, makeClaudeHome } from '../support/claude-cli.js'
import type { ClaudeHome } from '../support/claude-cli.js'
import { projectRoot } from './demo-driver.js'
import { keys } from './keys.js'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

/**
 * `chatrail demo` with no --agent, where the real Claude Code CLI answers (a scripted Anthropic
 * server on 127.0.0.1, a throwaway HOME): the probe counts it as answering, the demo picks it,
 * and an unmatched message is answered by the agent through <InkChat>.
 */

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.skipIf(!existsSync(CLAUDE_BIN))('chatrail demo with a Claude Code that answers', () => {
  it('probes, picks claude-code, and shows the agent’s reply and run state', async () => {
    const server: AnthropicServer = await startAnthropicServer({ turns: [{ content: [{ type: 'text', text: 'Hello from the scripted agent.' }] }] })
    cleanups.push(() => server.close())
    const home: ClaudeHome = makeClaudeHome('chatrail-demo-cc-')
    cleanups.push(home.cleanup)
    const env = { ...claudeEnv(home.home, server.url), PATH: `${AGENT_BIN_DIR}:${join(projectRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, FORCE_COLOR: '1' }
    const terminal: PtyTerminal = startPty(
      join(projectRoot, 'node_modules', '.bin', 'tsx'),
      ['--tsconfig', join(projectRoot, 'tsconfig.json'), join(projectRoot, 'src', 'cli', 'main.ts'), 'demo', '--probe-timeout', '30000'],
      { cwd: home.cwd, env },
    )
    cleanups.push(() => terminal.kill())
    let screen = await terminal.waitFor('last turn none', 60_000)
    expect(screen).toMatch(/agent: claude-code \(claude answered in \d+\.\d s\)/)
    terminal.write('what is the weather like?')
    await terminal.waitFor('› what is the weather like?')
    terminal.write(keys.enter)
    screen = await terminal.waitFor('bot · agentic\nHello from the scripted agent.', 30_000)
    // The status line reads the agent's run state from its transcript on the next poll, which can
    // come after the reply is on screen (a CI run under load saw it a poll later).
    screen = await terminal.waitFor('state greeting · last turn agentic · claude-code needs_input (completed)', 30_000)
    expect(screen).toContain('bot · agentic\nHello from the scripted agent.')
    expect(server.requests.some((request) => !request.side)).toBe(true)
    terminal.write(keys.ctrlC)
    expect((await terminal.exited).exitCode).toBe(0)
  }, 120_000)
})
