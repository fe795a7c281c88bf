import type { RecordedRequest, ScriptStep, ScriptedTurn } from '../../support/anthropic-server.js'
import type { InteractiveClaude } from '../../support/claude-cli.js'
import { KEY, sleep } from '../../support/claude-cli.js'

/**
 * Named scenarios for the real Claude Code CLI against the scripted model server. The recorder
 * (`npm run fixtures:record`) plays all of them into test/fixtures/claude-code/; the live tests
 * play a few. An interactive scenario drives the TUI with keys and calls `snap` at the moments
 * worth a fixture (a dialog on screen, a finished turn).
 */

export interface ScenarioContext {
  cli: InteractiveClaude
  /** Saves the transcript(s), registry entry and live-signal files as fixture `name`. */
  snap: (name: string, description: string, ready?: SnapReady) => Promise<void>
}

/** What must be true on disk before a snapshot is taken. */
export interface SnapReady {
  registryStatus?: 'busy' | 'idle' | 'waiting'
  spool?: boolean
  /** A transcript line must contain this text. */
  transcriptHas?: string
}

export interface Scenario {
  name: string
  mode: 'headless' | 'interactive'
  args?: string[]
  prompt: string
  turns: ScriptStep[]
  /** What the server plays once `turns` run out. */
  fallback?: ScriptedTurn
  /** Headless: the fixture's description. */
  description?: string
  drive?: (ctx: ScenarioContext) => Promise<void>
}

const colorQuestion = { question: 'Which color do you prefer?', header: 'Color', multiSelect: false, options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }
const fruitQuestion = { question: 'Which fruits do you like?', header: 'Fruits', multiSelect: true, options: [{ label: 'Apple', description: 'crisp' }, { label: 'Banana', description: 'soft' }, { label: 'Cherry', description: 'small' }] }

export const PLAN_MARKDOWN = '# Plan\n\n1. Write the failing test\n2. Make it pass\n3. Ship'

/** The plan file path the CLI names in its plan-mode instructions. */
export function planFilePath(request: RecordedRequest): string {
  const match = /\/[^\s"'\\]*\/\.claude\/plans\/[^\s"'\\]+\.md/.exec(JSON.stringify(request.body))
  if (match === null) throw new Error('the plan-mode request names no plan file')
  return match[0]
}

const writePlan: ScriptStep = (request) => ({ content: [{ type: 'text', text: 'Writing the plan.' }, { type: 'tool_use', name: 'Write', input: { file_path: planFilePath(request), content: PLAN_MARKDOWN } }] })
const exitPlan: ScriptedTurn = { content: [{ type: 'text', text: 'The plan is ready.' }, { type: 'tool_use', name: 'ExitPlanMode', input: {} }] }
const ask = (questions: unknown[]): ScriptedTurn => ({ content: [{ type: 'text', text: 'Let me ask first.' }, { type: 'tool_use', name: 'AskUserQuestion', input: { questions } }] })
const reply = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] })

async function waitForPicker(cli: InteractiveClaude): Promise<void> {
  await cli.waitFor(/Entertoselect|Wouldyouliketoproceed|Doyouwantto/)
  await sleep(400)
}

export const scenarios: Scenario[] = [
  {
    name: 'plain-turn',
    mode: 'interactive',
    prompt: 'Say hello',
    turns: [reply('Hello! How can I help?')],
    drive: async ({ cli, snap }) => {
      await cli.waitFor('HowcanIhelp')
      await snap('plain-turn', 'A prompt and one text reply (end_turn), turn_duration; registry idle.', { registryStatus: 'idle', transcriptHas: 'turn_duration' })
    },
  },
  {
    name: 'headless-tool-use',
    mode: 'headless',
    args: ['--allowedTools', 'Bash'],
    prompt: 'List the files',
    description: 'claude -p: text + Bash tool_use in one API message, tool_result, final text. No registry (headless runs write none).',
    turns: [{ content: [{ type: 'text', text: 'Listing them.' }, { type: 'tool_use', name: 'Bash', input: { command: 'ls', description: 'List files' } }] }, reply('The directory is empty.')],
  },
  {
    name: 'max-tokens',
    mode: 'headless',
    prompt: 'Write a very long answer',
    description: 'Every response stops at max_tokens: the CLI asks to continue three times, then writes the synthetic "exceeded the … output token maximum" API error.',
    turns: [{ content: [{ type: 'text', text: 'This answer is cut' }], stopReason: 'max_tokens' }],
    fallback: { content: [{ type: 'text', text: 'and continued' }], stopReason: 'max_tokens' },
  },
  {
    name: 'api-error',
    mode: 'interactive',
    prompt: 'Say hello',
    turns: [{ error: { status: 400, type: 'invalid_request_error', message: 'scripted: this request is refused' } }],
    drive: async ({ cli, snap }) => {
      await cli.waitFor(/APIError|refused/)
      await snap('api-error', 'The model API answers 400: the CLI writes a synthetic isApiErrorMessage assistant line.', { registryStatus: 'idle', transcriptHas: 'isApiErrorMessage' })
    },
  },
  {
    name: 'permission',
    mode: 'interactive',
    prompt: 'Create a file',
    turns: [{ content: [{ type: 'text', text: 'Creating it.' }, { type: 'tool_use', name: 'Bash', input: { command: 'touch made.txt', description: 'Create made.txt' } }] }, reply('Created.')],
    drive: async ({ cli, snap }) => {
      await waitForPicker(cli)
      await snap('permission-pending', 'A Bash permission prompt on screen: the tool_use is written, registry waiting ("permission prompt").', { registryStatus: 'waiting', transcriptHas: 'tool_use' })
      cli.write(KEY.esc)
      await snap('permission-denied', 'The permission prompt declined with Esc: denial tool_result + interrupt marker.', { registryStatus: 'idle', transcriptHas: 'interrupted by user for tool use' })
    },
  },
  {
    name: 'question',
    mode: 'interactive',
    prompt: 'Pick a color for me',
    turns: [ask([colorQuestion]), reply('Red it is.')],
    drive: async ({ cli, snap }) => {
      await waitForPicker(cli)
      await snap('question-pending', 'AskUserQuestion on screen (one question); spool written by the PreToolUse hook.', { registryStatus: 'waiting', spool: true })
      cli.write(KEY.enter)
      await cli.waitFor('Reditis')
      await snap('question-answered', 'The question answered with the first option (Red); the turn ends.', { registryStatus: 'idle', transcriptHas: 'Red it is' })
    },
  },
  {
    name: 'question-multi-select',
    mode: 'interactive',
    prompt: 'Ask me two things',
    turns: [ask([colorQuestion, fruitQuestion]), reply('Noted.')],
    drive: async ({ cli, snap }) => {
      await waitForPicker(cli)
      cli.write(KEY.enter) // Red
      await cli.waitFor('Fruits')
      await sleep(400)
      for (const key of [KEY.down, KEY.down, KEY.enter, KEY.up, KEY.up, KEY.enter]) {
        cli.write(key) // toggle Cherry, then Apple
        await sleep(250)
      }
      cli.write(KEY.tab)
      await cli.waitFor('Submitanswers')
      cli.write(KEY.enter)
      await cli.waitFor('Noted')
      await snap('question-multi-select', 'Two questions: Red, then the multi-select toggled Cherry then Apple (recorded "Cherry, Apple").', { registryStatus: 'idle', transcriptHas: 'Noted.' })
    },
  },
  {
    name: 'question-dismissed',
    mode: 'interactive',
    prompt: 'Pick a color for me',
    turns: [ask([colorQuestion]), reply('unused')],
    drive: async ({ cli, snap }) => {
      await waitForPicker(cli)
      cli.write(KEY.esc)
      await snap('question-dismissed', 'AskUserQuestion dismissed with Esc: "User rejected tool use" + interrupt marker.', { registryStatus: 'idle', transcriptHas: 'interrupted by user for tool use' })
    },
  },
  {
    name: 'plan-approved',
    mode: 'interactive',
    args: ['--permission-mode', 'plan'],
    prompt: 'Plan the change',
    turns: [writePlan, exitPlan, reply('Starting on step 1.')],
    drive: async ({ cli, snap }) => {
      await cli.waitFor('Wouldyouliketoproceed')
      await sleep(400)
      await snap('plan-pending', 'ExitPlanMode on screen in plan mode (plan written to the plan file first); spool written.', { registryStatus: 'waiting', spool: true })
      cli.write(KEY.down)
      await sleep(250)
      cli.write(KEY.enter) // "Yes, manually approve edits"
      await cli.waitFor('Startingonstep1')
      await snap('plan-approved', 'The plan approved ("Yes, manually approve edits"); work starts.', { registryStatus: 'idle', transcriptHas: 'Starting on step 1' })
    },
  },
  {
    name: 'plan-rejected',
    mode: 'interactive',
    args: ['--permission-mode', 'plan'],
    prompt: 'Plan the change',
    turns: [writePlan, exitPlan, reply('I will add tests first.')],
    drive: async ({ cli, snap }) => {
      await cli.waitFor('Wouldyouliketoproceed')
      await sleep(400)
      cli.write(KEY.down)
      await sleep(250)
      cli.write(KEY.down)
      await sleep(250)
      cli.write('Add tests first')
      await sleep(400)
      cli.write(KEY.enter)
      await cli.waitFor('Iwilladdtestsfirst')
      await snap('plan-rejected', 'The plan rejected with typed feedback "Add tests first"; the model goes on in the same turn.', { registryStatus: 'idle', transcriptHas: 'I will add tests first' })
    },
  },
  {
    name: 'interrupted',
    mode: 'interactive',
    prompt: 'Write a long essay',
    turns: [{ hang: { text: 'Here is the first part of' } }],
    drive: async ({ cli, snap }) => {
      await cli.waitFor(/esctointerrupt/)
      await sleep(1500)
      await snap('streaming', 'A response streaming (the server hangs mid-text): registry busy, nothing assistant-side written yet.', { registryStatus: 'busy' })
      cli.write(KEY.esc)
      await snap('interrupted', 'Esc while streaming: the partial text (stop_sequence) and "[Request interrupted by user]".', { registryStatus: 'idle', transcriptHas: '[Request interrupted by user]' })
    },
  },
  {
    name: 'clear',
    mode: 'interactive',
    prompt: 'Say hi',
    turns: [reply('Hi there.'), reply('Fresh start.')],
    drive: async ({ cli, snap }) => {
      await cli.waitFor('Hithere')
      await sleep(800)
      await cli.submit('/clear')
      await sleep(1500)
      await cli.submit('Hello again')
      await cli.waitFor('Freshstart')
      await snap('clear', '/clear: a new session id and a new file (caveat, /clear echo, local_command), then one more turn. Both files saved.', { registryStatus: 'idle', transcriptHas: 'Fresh start' })
    },
  },
]
