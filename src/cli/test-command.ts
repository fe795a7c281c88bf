import { ChatrailError } from '../contract/errors.js'
import { findConversationFiles } from '../testing/conversations/file-search.js'
import { runConversationSuite } from '../testing/conversations/run-suite.js'
import type { ConversationSuiteResult } from '../testing/conversations/run-suite.js'
import { formatSuiteReport } from '../testing/conversations/suite-report.js'
import { parseCommandArgs, usageErrorText } from './args.js'
import { colorEnabled, palette } from './color.js'
import { paintReport } from './paint-report.js'

/**
 * `chatrail test [files…]`: runs conversation files and reports per conversation. Exit codes:
 * 0 all passed, 1 any failure (a failed expectation, an invalid file, no files found, coverage
 * under `--min-coverage`), 2 a usage error. TypeScript definition modules load through tsx
 * (see `importModule` in src/testing/conversations/definition-loader.ts).
 */

export const testCommandUsage = `usage: chatrail test [files, directories or globs…] [options]

Runs *.conv.yaml conversation files (default: every one below the current directory).

options:
  --json               print the results as JSON on stdout
  --coverage           print which routes, states and transitions ran, and which never did
  --min-coverage <N>   fail when a definition's coverage is below N percent (implies --coverage)
  --replay-check       regenerate every deterministic turn and re-run each conversation under a
                       shifted clock; fail when a reply or trace changes
  --record             answer agentic turns with the definition's real adapter and write each
                       conversation's cassette file
  -h, --help           show this help

examples:
  chatrail test                                   every *.conv.yaml below this directory
  chatrail test examples/support-bot --coverage --min-coverage 100 --replay-check
  chatrail test refund.conv.yaml --record         record the agentic turns' cassette`

export interface CommandIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
  /** Colour the human report (src/cli/color.ts decides it for the process's stdout). Default: no colour. */
  color?: boolean
}

const defaultIo: CommandIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
}

/** The command-table entry point (`src/cli/main.ts`): runs with the process's stdout, stderr and cwd. */
export function run(args: readonly string[]): Promise<number> {
  return runTestCommand(args, { stdout: defaultIo.stdout, stderr: defaultIo.stderr, cwd: process.cwd(), color: colorEnabled(process.stdout, process.env) })
}

/** Runs the command and resolves with its exit code; never calls `process.exit` itself. */
export async function runTestCommand(args: readonly string[], io: CommandIo = defaultIo): Promise<number> {
  const parsed = parseCommandArgs(
    {
      command: 'test',
      positionals: true,
      options: {
        json: { type: 'boolean' },
        coverage: { type: 'boolean' },
        'min-coverage': { type: 'string' },
        'replay-check': { type: 'boolean' },
        record: { type: 'boolean' },
      },
    },
    args,
  )
  if (parsed.kind === 'help') {
    io.stdout(testCommandUsage)
    return 0
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(parsed.message)
    return 2
  }
  const { values, positionals } = parsed
  const minText = values['min-coverage']
  const minCoverage = minText === undefined ? undefined : Number(minText)
  if (minCoverage !== undefined && (!Number.isFinite(minCoverage) || minCoverage < 0 || minCoverage > 100)) {
    io.stderr(usageErrorText('test', `--min-coverage takes a percentage from 0 to 100, got ${JSON.stringify(minText)}`))
    return 2
  }
  let files: string[]
  try {
    files = findConversationFiles(positionals.length === 0 ? ['.'] : positionals, io.cwd)
  } catch (error) {
    io.stderr(ChatrailError.isInstance(error) ? `chatrail test: ${error.toString()}` : String(error))
    return 1
  }
  const result: ConversationSuiteResult = await runConversationSuite(files, {
    replayCheck: values['replay-check'] === true,
    record: values.record === true,
    coverage: values.coverage === true,
    ...(minCoverage === undefined ? {} : { minCoverage }),
  })
  if (values.json === true) io.stdout(JSON.stringify(result, null, 2))
  else io.stdout(paintReport(formatSuiteReport(result, { cwd: io.cwd, ...(minCoverage === undefined ? {} : { minCoverage }) }), palette(io.color === true)))
  return result.passed ? 0 : 1
}
