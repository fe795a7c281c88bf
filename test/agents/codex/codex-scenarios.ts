import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { createCodexWorkspace, runCodexExec, startCodexExec, waitForRollout } from '../../support/codex-cli.js'
import type { CodexRunResult, CodexWorkspace } from '../../support/codex-cli.js'
import { respond, run, say, startOpenAIServer, think } from '../../support/openai-server.js'
import type { OpenAIServer, ScriptedResponse } from '../../support/openai-server.js'

/**
 * The recorded Codex scenarios, run against the real CLI and the scripted Responses server. The
 * fixture recorder (`scripts/record-codex-fixtures.ts`) saves what they produce; the live tests
 * run a few of them again and check the reader against the fresh files.
 */
export const scenarioNames = ['plain-turn', 'tool-run', 'failing-command', 'api-error', 'api-error-400', 'mid-turn', 'aborted-turn', 'resume'] as const
export type ScenarioName = (typeof scenarioNames)[number]

export interface ScenarioRecording {
  name: ScenarioName
  /** The rollout as it was when the scenario ended (for `mid-turn`: the snapshot taken mid-turn). */
  rollout: string
  /** The rollout's own file name (`rollout-<local time>-<uuid>.jsonl`). */
  rolloutFileName: string
  /** `codex exec --json` stdout, one capture per CLI run. */
  exec: string[]
  exitCodes: (number | null)[]
  /** What the scripted server saw: the requests and anything it could not answer. */
  requests: number
  problems: string[]
}

const prompts = {
  plain: 'Say hello.',
  tool: 'List the files in this directory.',
  failing: 'Show me what is in /definitely-missing-dir.',
}

export async function recordScenario(name: ScenarioName): Promise<ScenarioRecording> {
  const server = await startOpenAIServer()
  const workspace = createCodexWorkspace({ baseUrl: server.baseUrl, files: { 'notes.txt': 'remember the milk\n' } })
  try {
    return await play(name, server, workspace)
  } finally {
    workspace.cleanup()
    await server.close()
  }
}

async function play(name: ScenarioName, server: OpenAIServer, workspace: CodexWorkspace): Promise<ScenarioRecording> {
  const runs: CodexRunResult[] = []
  let snapshot: string | undefined
  const once = async (prompt: string, script: ScriptedResponse[], resume?: string): Promise<CodexRunResult> => {
    server.push(...script)
    const result = await runCodexExec({ workspace, prompt, timeoutMs: 30_000, ...(resume ? { resume } : {}) })
    runs.push(result)
    return result
  }
  switch (name) {
    case 'plain-turn':
      await once(prompts.plain, [respond(say('Hello! How can I help you today?', 'final_answer'))])
      break
    case 'tool-run':
      await once(prompts.tool, [
        respond(think('Listing the directory', 'The user wants the file names'), say('I will list the files.', 'commentary'), run('ls')),
        respond(say('There is one file: notes.txt.', 'final_answer')),
      ])
      break
    case 'failing-command':
      await once(prompts.failing, [
        respond(run('ls /definitely-missing-dir')),
        respond(say('That directory does not exist.', 'final_answer')),
      ])
      break
    case 'api-error':
      // request_max_retries = 1: the first request and one retry both fail.
      await once(prompts.plain, [
        { type: 'http_error', status: 500, message: 'scripted upstream failure' },
        { type: 'http_error', status: 500, message: 'scripted upstream failure' },
      ])
      break
    case 'api-error-400':
      // A client error (not retried): Codex records the server's JSON body as the error message.
      await once(prompts.plain, [{ type: 'http_error', status: 400, message: 'The scripted model refuses.' }])
      break
    case 'mid-turn': {
      server.push(respond(think('Waiting for the build'), run('sleep 2')), respond(say('The wait is over.', 'final_answer')))
      const started = startCodexExec({ workspace, prompt: 'Wait two seconds, then tell me.', timeoutMs: 30_000 })
      const path = await waitForRollout(workspace, (text) => text.includes('"type":"function_call"'))
      snapshot = readFileSync(path, 'utf8')
      runs.push(await started.done)
      break
    }
    case 'aborted-turn': {
      server.push(respond(say('Starting a long command.', 'commentary'), run('sleep 30')))
      const started = startCodexExec({ workspace, prompt: 'Run something slow.', timeoutMs: 30_000 })
      await waitForRollout(workspace, (text) => text.includes('"type":"function_call"'))
      // Let the command start before interrupting it, as a user pressing Ctrl-C would.
      await new Promise((resolve) => setTimeout(resolve, 400))
      started.child.kill('SIGINT')
      runs.push(await started.done)
      break
    }
    case 'resume': {
      const first = await once('What is 2 + 2?', [respond(say('4.', 'final_answer'))])
      if (!first.threadId) throw new Error(`resume: the first run printed no thread.started (exit ${first.exitCode}): ${first.stderr}`)
      // A prompt starting with '-' must reach the model as text; the accents exercise UTF-8 splits.
      await once('-now show the notes, café ✓', [
        respond(run('cat notes.txt')),
        respond(say('The notes say: remember the milk.', 'final_answer')),
      ], first.threadId)
      break
    }
  }
  const files = workspace.rollouts()
  const path = files.at(-1)
  if (!path || files.length !== 1) throw new Error(`${name}: expected exactly one rollout in ${workspace.codexHome}, found ${files.length}`)
  return {
    name,
    rollout: snapshot ?? readFileSync(path, 'utf8'),
    rolloutFileName: basename(path),
    exec: runs.map((result) => result.stdout),
    exitCodes: runs.map((result) => result.exitCode),
    requests: server.requests.length,
    problems: [...server.problems],
  }
}
