import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runExportCommand } from '../../src/cli/export.js'
import { pgliteStore } from '../../src/store/index.js'
import { runConversationFile } from '../../src/testing/conversations/run-file.js'
import { pgliteDataDirFromTemplate, removeDataDir } from '../support/pglite-template.js'
import { allKinds, apiHarness } from './api/api-harness.js'

// `chatrail export <id> --definition <module> --store pglite:<dir>`: the file it writes passes
// `chatrail test`'s runner, plain and redacted; its mistakes are one line each.

const CHAT_MODULE = fileURLToPath(new URL('./api/api-chat.ts', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'chatrail-export-command-'))
let dataDir: string

beforeAll(async () => {
  dataDir = await pgliteDataDirFromTemplate()
  const store = pgliteStore({ dataDir })
  await allKinds(apiHarness(store), 'c-cli')
  await store.close()
})
afterAll(() => {
  removeDataDir(dataDir)
  rmSync(out, { recursive: true, force: true })
})

function io(): { stdout: string[]; stderr: string[]; io: { stdout: (text: string) => void; stderr: (text: string) => void; cwd: string } } {
  const stdout: string[] = []
  const stderr: string[] = []
  return { stdout, stderr, io: { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text), cwd: out } }
}

describe('chatrail export', () => {
  it('writes a file chatrail test passes, naming the module relative to the file; --redact too', async () => {
    for (const redact of [false, true]) {
      const file = join(out, 'tests', redact ? 'redacted.conv.yaml' : 'c-cli.conv.yaml')
      const run = io()
      const code = await runExportCommand(['c-cli', '--definition', CHAT_MODULE, '--export', 'apiChat', '--store', `pglite:${dataDir}`, '--out', file, ...(redact ? ['--redact'] : [])], run.io)
      expect(run.stderr.join('\n')).toBe(redact ? 'chatrail export: kept as typed (no placeholder is decided the same way): turns 3, 12' : '')
      expect(code).toBe(0)
      const yaml = readFileSync(file, 'utf8')
      expect(yaml).toContain(`definition: { module: ${JSON.stringify(relative(join(out, 'tests'), CHAT_MODULE))}, export: "apiChat" }`)
      if (redact) expect(yaml).not.toContain('4821')
      const result = await runConversationFile(file)
      expect(result.conversations[0]?.failures ?? result.issues).toEqual([])
      expect(result.passed).toBe(true)
    }
  })

  it('prints to stdout without --out', async () => {
    const run = io()
    expect(await runExportCommand(['c-cli', '--definition', CHAT_MODULE, '--export', 'apiChat', '--store', `pglite:${dataDir}`], run.io)).toBe(0)
    expect(run.stdout.join('\n')).toMatch(/^# Exported from conversation c-cli/)
  })

  it('says what is wrong in one line: usage 2, a missing conversation or module 1', async () => {
    const cases: Array<[string[], number, string]> = [
      [[], 2, 'chatrail export: give the conversation id'],
      [['c-cli', '--store', `pglite:${dataDir}`], 2, 'chatrail export: give the definition module: --definition <module>'],
      [['c-cli', '--definition', CHAT_MODULE], 2, 'chatrail export: say where the conversation is'],
      [['c-cli', '--definition', CHAT_MODULE, '--store', 'memory'], 2, 'chatrail export: --store memory holds nothing another process wrote'],
      [['c-cli', '--definition', CHAT_MODULE, '--store', 'mysql://x'], 2, 'chatrail export: --store mysql://x is not a store'],
      [['c-cli', '--definiton', CHAT_MODULE], 2, '--definiton'],
      [['nope', '--definition', CHAT_MODULE, '--export', 'apiChat', '--store', `pglite:${dataDir}`], 1, 'chatrail export: there is no conversation "nope" in the store'],
      [['c-cli', '--definition', 'missing.ts', '--store', `pglite:${dataDir}`], 1, 'chatrail export: no such file:'],
      [['c-cli', '--definition', CHAT_MODULE, '--export', 'nothing', '--store', `pglite:${dataDir}`], 1, 'has no export "nothing"'],
    ]
    for (const [args, status, message] of cases) {
      const run = io()
      expect(await runExportCommand(args, run.io), args.join(' ')).toBe(status)
      expect(run.stderr.join('\n'), args.join(' ')).toContain(message)
      expect(run.stdout).toEqual([])
    }
  })
})
