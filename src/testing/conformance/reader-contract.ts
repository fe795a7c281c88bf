import { appendFileSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as FastCheck from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { AgentChat } from '../../contract/agent-chat.js'
import { TranscriptGoneError } from '../../agents/runstate/errors.js'

/**
 * The run-state reader conformance suite (seed 000's read contract, run-state-readers.md §8
 * items 1–4, 81–83 and the tail guarantees), in the style of Hono's `common.case.test.ts`:
 * every agent reader runs it, and anything a reader cannot honour is skipped with a reason.
 *
 * - R1 `transcriptPath: ""` is the idle empty chat, never an error (also with a fresh runtime dir);
 * - R2 a vanished non-empty path is a `TranscriptGoneError`, for a one-shot read and for a tail;
 * - R3 malformed lines are skipped and counted in `warnings`; the chat is what the clean file gives;
 * - R4 a half-written last line waits: it is neither read nor warned about until its newline;
 * - R5 a tail fed any split of the file into appends equals one full read (fast-check);
 * - R6 seqs are stable as the file grows: a message keeps its seq, kind and role.
 */

export type ReaderInvariant = 'R1' | 'R2' | 'R3' | 'R4' | 'R5' | 'R6'

export interface ReadChatArgs {
  runId: string
  runtimeDir: string
  transcriptPath: string
}

export interface ReaderUnderContract {
  /** The reader's `readChat` (Claude Code's and Codex's both take these three fields). */
  readChat: (args: ReadChatArgs) => Promise<AgentChat>
  /** An incremental reader of one transcript: each `read()` folds what was appended since the last. */
  openTail: (transcriptPath: string) => { read: () => Promise<AgentChat> }
  /**
   * A real transcript of this agent, one JSON line per entry, whose full read has at least two
   * messages. Non-ASCII text in it makes R5 split inside multi-byte characters too.
   */
  sampleLines: readonly string[]
  /** Invariants this reader cannot honour, each with the reason. */
  skip?: Partial<Record<ReaderInvariant, string>>
  /** fast-check runs for R5 (default 30). */
  numRuns?: number
}

const GARBAGE = ['{"half": ', 'not json at all', '\u0000\u0001', '[1, 2']

export function describeReaderContract(name: string, reader: ReaderUnderContract): void {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-reader-contract-'))
  let files = 0
  const file = (content: string): string => {
    files += 1
    const path = join(dir, `transcript-${files}.jsonl`)
    writeFileSync(path, content)
    return path
  }
  const text = `${reader.sampleLines.join('\n')}\n`
  const read = (transcriptPath: string, runtimeDir = ''): Promise<AgentChat> => reader.readChat({ runId: 'contract-run', runtimeDir, transcriptPath })
  /** One invariant's test, or a skipped test that says why. */
  const check = (invariant: ReaderInvariant, title: string, body: () => Promise<void>): void => {
    const reason = reader.skip?.[invariant]
    if (reason === undefined) it(`${invariant}: ${title}`, body)
    else it.skip(`${invariant}: ${title} (skipped: ${reason})`, body)
  }

  describe(`reader contract: ${name}`, () => {
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    it('the sample is usable (at least two messages in its full read)', async () => {
      expect((await read(file(text))).messages.length).toBeGreaterThanOrEqual(2)
    })

    check('R1', 'an empty path is the idle empty chat, never an error', async () => {
      for (const runtimeDir of ['', mkdtempSync(join(dir, 'runtime-'))]) {
        const chat = await read('', runtimeDir)
        expect(chat).toMatchObject({ state: 'idle', status: 'idle', messages: [], cursor: { offset: 0, lines: 0 } })
        expect(chat.pendingDialog).toBeUndefined()
        expect(chat.usage).toBeUndefined()
      }
    })

    check('R2', 'a vanished path is a TranscriptGoneError, for a read and for a tail', async () => {
      const never = join(dir, 'never-written.jsonl')
      await expect(read(never)).rejects.toSatisfy((error: unknown) => TranscriptGoneError.isInstance(error) && error.code === 'TRANSCRIPT_GONE')
      const path = file(text)
      const tail = reader.openTail(path)
      await tail.read()
      unlinkSync(path)
      await expect(tail.read()).rejects.toSatisfy(TranscriptGoneError.isInstance)
    })

    check('R3', 'malformed lines are skipped and counted; the chat is the clean one', async () => {
      const clean = await read(file(text))
      const dirty = reader.sampleLines.flatMap((line, index) => (index % 2 === 0 ? [GARBAGE[index % GARBAGE.length] ?? '', line] : [line]))
      const chat = await read(file(`${dirty.join('\n')}\n`))
      expect(chat.warnings.length).toBeGreaterThan(0)
      expect(stripVolatile(chat)).toEqual(stripVolatile(clean))
    })

    check('R4', 'a half-written last line waits for its newline', async () => {
      const lines = reader.sampleLines
      const head = `${lines.slice(0, -1).join('\n')}\n`
      const last = lines.at(-1) ?? ''
      const path = file(`${head}${last.slice(0, Math.max(1, Math.floor(last.length / 2)))}`)
      const partial = await read(path)
      expect(partial.warnings).toEqual((await read(file(head))).warnings)
      expect(partial.cursor.offset).toBe(Buffer.byteLength(head))
      expect(stripVolatile(partial)).toEqual(stripVolatile(await read(file(head))))
      writeFileSync(path, text)
      expect(stripVolatile(await read(path))).toEqual(stripVolatile(await read(file(text))))
    })

    check('R5', 'a tail fed any split of the file equals one full read', async () => {
      const fc = await loadFastCheck()
      const bytes = Buffer.from(text)
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), async (cuts) => {
          const path = file('')
          const tail = reader.openTail(path)
          let from = 0
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            appendFileSync(path, bytes.subarray(from, cut))
            from = cut
            await tail.read()
          }
          appendFileSync(path, bytes.subarray(from))
          expect(await tail.read()).toEqual(await read(path))
        }),
        { numRuns: reader.numRuns ?? 30 },
      )
    })

    check('R6', 'seqs are stable as the file grows', async () => {
      const path = file('')
      const tail = reader.openTail(path)
      let previous: AgentChat | undefined
      for (const line of reader.sampleLines) {
        appendFileSync(path, `${line}\n`)
        const chat = await tail.read()
        const seqs = chat.messages.map((message) => message.seq)
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
        expect(new Set(seqs).size).toBe(seqs.length)
        for (const before of previous?.messages ?? []) {
          const now = chat.messages.find((message) => message.seq === before.seq)
          if (now) expect([now.kind, now.role]).toEqual([before.kind, before.role])
        }
        expect(await read(path)).toEqual(chat)
        previous = chat
      }
      expect(previous?.messages[0]?.seq).toBe(1)
    })
  })
}

/** fast-check is an optional peer of `chatrail/testing`: loaded only by R5, so the rest works without it. */
async function loadFastCheck(): Promise<typeof FastCheck> {
  try {
    return await import('fast-check')
  } catch (cause) {
    throw new Error('describeReaderContract R5 needs fast-check (an optional peer of chatrail/testing): npm i -D fast-check', { cause })
  }
}

/** Warnings name files and lines, and the cursor counts bytes: what differs between two equivalent files. */
function stripVolatile(chat: AgentChat): Omit<AgentChat, 'warnings' | 'cursor'> {
  const { warnings: _warnings, cursor: _cursor, ...rest } = chat
  return rest
}
