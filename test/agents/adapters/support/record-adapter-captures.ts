/**
 * Records the stdout of the real CLIs, exactly as the adapters see it, into
 * test/fixtures/claude-code/stream-json/ and test/fixtures/codex/exec/ (one JSON event per line).
 * Offline: the CLIs talk to the scripted model servers of test/support on 127.0.0.1.
 *
 *   npx tsx test/agents/adapters/support/record-adapter-captures.ts
 *
 * The argument arrays come from the adapters' own builders, so a capture shows what a turn of the
 * adapter reads. Dialog captures answer the CLI's `can_use_tool` control requests on stdin.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startAgentProcess } from '../../../../src/agents/process/agent-process.js'
import { parseJsonLine } from '../../../../src/agents/process/json-value.js'
import { buildClaudeArgs, claudeUserMessageLine } from '../../../../src/agents/claude-code/adapter/claude-args.js'
import { controlResponseLine, parseCanUseToolRequest } from '../../../../src/agents/claude-code/adapter/claude-control-request.js'
import type { PermissionDecision } from '../../../../src/agents/claude-code/adapter/claude-control-request.js'
import { buildCodexArgs } from '../../../../src/agents/codex/adapter/codex-args.js'
import { startAnthropicServer } from '../../../support/anthropic-server.js'
import type { ScriptedTurn } from '../../../support/anthropic-server.js'
import { CLAUDE_BIN, claudeEnv, makeClaudeHome } from '../../../support/claude-cli.js'
import { codexBin, createCodexWorkspace } from '../../../support/codex-cli.js'
import type { CodexWorkspace } from '../../../support/codex-cli.js'
import { respond, run, say, startOpenAIServer, think } from '../../../support/openai-server.js'
import type { ScriptedResponse } from '../../../support/openai-server.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')
const claudeDir = join(root, 'test/fixtures/claude-code/stream-json')
const codexDir = join(root, 'test/fixtures/codex/exec')

interface ClaudeCapture {
  name: string
  turns: ScriptedTurn[]
  prompts: string[]
  partials?: boolean
  allowedTools?: string[]
  permissionMode?: string
  decide?: (toolName: string, input: Record<string, unknown>) => PermissionDecision
}

async function recordClaude(capture: ClaudeCapture): Promise<void> {
  const server = await startAnthropicServer({ turns: capture.turns })
  const home = makeClaudeHome()
  const lines: string[] = []
  let sessionId: string | undefined
  try {
    for (const prompt of capture.prompts) {
      const child = startAgentProcess({
        bin: CLAUDE_BIN,
        args: buildClaudeArgs({
          includePartialMessages: capture.partials !== false,
          ...(sessionId ? { resumeId: sessionId } : {}),
          ...(capture.allowedTools ? { allowedTools: capture.allowedTools } : {}),
          ...(capture.permissionMode ? { permissionMode: capture.permissionMode } : {}),
        }),
        cwd: home.cwd,
        env: claudeEnv(home.home, server.url),
        onLine(line) {
          lines.push(line)
          const event = parseJsonLine(line)
          if (!event) return
          if (typeof event.session_id === 'string') sessionId = event.session_id
          const request = parseCanUseToolRequest(event)
          if (request) {
            const decision = capture.decide?.(request.toolName, request.input) ?? { behavior: 'deny', message: 'denied by the recorder' }
            child.writeLine(controlResponseLine(request.requestId, decision))
          }
          if (event.type === 'result') child.endInput()
        },
      })
      child.writeLine(claudeUserMessageLine(prompt))
      const exit = await Promise.race([child.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 90_000))])
      if (exit === 'timeout') {
        await child.terminate(500)
        throw new Error(`${capture.name}: the CLI did not finish`)
      }
    }
    writeFileSync(join(claudeDir, `${capture.name}.jsonl`), `${lines.join('\n')}\n`)
    console.log(`claude-code/stream-json/${capture.name}.jsonl: ${lines.length} lines`)
  } finally {
    await server.close()
    home.cleanup()
  }
}

interface CodexCapture {
  name: string
  responses: ScriptedResponse[]
  prompts: string[]
}

async function recordCodex(capture: CodexCapture): Promise<void> {
  const server = await startOpenAIServer(capture.responses)
  const workspace: CodexWorkspace = createCodexWorkspace({ baseUrl: server.baseUrl })
  const lines: string[] = []
  let threadId: string | undefined
  try {
    for (const prompt of capture.prompts) {
      const child = startAgentProcess({
        bin: codexBin,
        args: buildCodexArgs({ skipGitRepoCheck: true, ...(threadId ? { resumeThreadId: threadId } : {}) }),
        cwd: workspace.cwd,
        env: { ...process.env, CODEX_HOME: workspace.codexHome, SCRIPTED_API_KEY: 'scripted-key', NO_COLOR: '1' },
        onLine(line) {
          lines.push(line)
          const event = parseJsonLine(line)
          if (event?.type === 'thread.started' && typeof event.thread_id === 'string') threadId = event.thread_id
        },
      })
      child.write(prompt)
      child.endInput()
      await child.exited
    }
    writeFileSync(join(codexDir, `${capture.name}.jsonl`), `${lines.join('\n')}\n`)
    console.log(`codex/exec/${capture.name}.jsonl: ${lines.length} lines`)
  } finally {
    await server.close()
    workspace.cleanup()
  }
}

const question = {
  questions: [
    { question: 'Which color should the button be?', header: 'Color', multiSelect: false, options: [{ label: 'Red', description: 'Warm' }, { label: 'Blue', description: 'Cool' }] },
    { question: 'Which extras?', header: 'Extras', multiSelect: true, options: [{ label: 'Icon', description: 'An icon' }, { label: 'Shadow', description: 'A shadow' }] },
  ],
}

async function main(): Promise<void> {
  mkdirSync(claudeDir, { recursive: true })
  mkdirSync(codexDir, { recursive: true })

  await recordClaude({
    name: 'text-thinking-partials',
    prompts: ['Say hello'],
    turns: [{ content: [{ type: 'thinking', thinking: 'The user wants a greeting.' }, { type: 'text', text: 'Hello from Claude.' }] }],
  })
  await recordClaude({
    name: 'text-no-partials',
    prompts: ['Say hello'],
    partials: false,
    turns: [{ content: [{ type: 'text', text: 'Hello without partials.' }] }],
  })
  await recordClaude({
    name: 'tool-bash-then-text',
    prompts: ['Write a file'],
    allowedTools: ['Bash'],
    turns: [
      { content: [{ type: 'text', text: 'I will write it.' }, { type: 'tool_use', name: 'Bash', input: { command: 'echo chatrail > note.txt && cat note.txt', description: 'Write note.txt' } }] },
      { content: [{ type: 'text', text: 'Wrote note.txt.' }] },
    ],
  })
  await recordClaude({
    name: 'api-error-400',
    prompts: ['Say hello'],
    turns: [{ error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long for the scripted model' } }],
  })
  await recordClaude({
    name: 'ask-user-question-answered',
    prompts: ['Ask me about the button'],
    turns: [{ content: [{ type: 'tool_use', name: 'AskUserQuestion', input: question }] }, { content: [{ type: 'text', text: 'Red with an icon and a shadow, then.' }] }],
    decide: (_tool, input) => ({ behavior: 'allow', updatedInput: { ...input, answers: { 'Which color should the button be?': 'Red', 'Which extras?': 'Icon, Shadow' } } }),
  })
  await recordClaude({
    name: 'plan-rejected-with-feedback',
    prompts: ['Plan the refactor'],
    permissionMode: 'plan',
    turns: [{ content: [{ type: 'tool_use', name: 'ExitPlanMode', input: { plan: '# Plan\n\n1. Split session.ts\n2. Add tests' } }] }, { content: [{ type: 'text', text: 'I will keep session.ts whole.' }] }],
    decide: () => ({
      behavior: 'deny',
      message: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nKeep session.ts whole",
    }),
  })
  await recordClaude({
    name: 'permission-denied',
    prompts: ['Delete the build folder'],
    turns: [{ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'rm -rf build', description: 'Delete build' } }] }, { content: [{ type: 'text', text: 'I was not allowed to.' }] }],
  })
  await recordClaude({
    name: 'resume-two-turns',
    prompts: ['Remember the word apple', 'Which word?'],
    turns: [{ content: [{ type: 'text', text: 'Remembered.' }] }, { content: [{ type: 'text', text: 'apple' }] }],
  })

  await recordCodex({ name: 'text-reasoning', prompts: ['Say hello'], responses: [respond(think('Greeting the user.'), say('Hello from Codex.'))] })
  await recordCodex({ name: 'command-then-text', prompts: ['List files'], responses: [respond(run('echo chatrail-tool')), respond(say('Listed.'))] })
  await recordCodex({ name: 'failing-command', prompts: ['Run a failing command'], responses: [respond(run('exit 3')), respond(say('It failed with 3.'))] })
  await recordCodex({ name: 'api-error', prompts: ['Say hello'], responses: [{ type: 'http_error', status: 400, message: 'The scripted model refuses.' }] })
  await recordCodex({ name: 'resume-two-turns', prompts: ['Remember apple', '-- which word?'], responses: [respond(say('Remembered.')), respond(say('apple'))] })
}

await main()
