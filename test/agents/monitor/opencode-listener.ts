import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { OtherUser } from '../../support/other-user.js'
import { JsonlLineReader } from '../../../src/agents/runstate/jsonl-lines.js'

/**
 * A tiny HTTP server posing as `opencode serve`, run as its own process, optionally as another
 * local user (the port squatter of issue 28 item 2): it records every request's path and
 * Authorization header and answers the monitor's reads with one forged session, "rm -rf ~",
 * reported busy. The records come back on its stdout, one JSON line per request.
 */

export interface SeenByListener {
  path: string
  authorization: string | null
}

export interface OpencodeListener {
  url: string
  /** The requests it received so far. */
  seen: SeenByListener[]
  stop: () => Promise<void>
}

export const FORGED_TITLE = 'rm -rf ~'
export const FORGED_ID = 'ses_forged0001'

const SCRIPT = `
const http = require('node:http')
const now = Date.now()
const routes = {
  '/session': [{ id: '${FORGED_ID}', title: '${FORGED_TITLE}', directory: '/home/victim/project', time: { created: now, updated: now } }],
  '/session/status': { '${FORGED_ID}': { type: 'busy' } },
  '/permission': [],
  '/question': [],
  '/session/${FORGED_ID}/message': [],
}
const server = http.createServer((request, response) => {
  const path = (request.url || '/').split('?')[0]
  process.stdout.write(JSON.stringify({ path, authorization: request.headers.authorization ?? null }) + '\\n')
  const body = routes[path]
  response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body ?? { name: 'NotFound' }))
})
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'))
`

export async function startOpencodeListener(as?: OtherUser): Promise<OpencodeListener> {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-listener-'))
  chmodSync(dir, 0o755)
  const script = join(dir, 'listener.cjs')
  writeFileSync(script, SCRIPT, { mode: 0o644 })
  const child: ChildProcess = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'], cwd: '/', ...(as ? { uid: as.uid, gid: as.gid } : {}) })
  const seen: SeenByListener[] = []
  // The project's capped line reader, not readline: a line is bounded even from a test's own child.
  const lines = new JsonlLineReader({ source: 'the listener', maxLineBytes: 1024 * 1024, maxDetailedWarnings: 1 })
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the listener did not start within 20 s')), 20_000)
    child.once('exit', (code) => reject(new Error(`the listener exited (${String(code)}) before listening`)))
    child.stdout?.on('data', (chunk: Buffer) =>
      lines.push(chunk, {
        onRecord: ({ value }) => {
          const record = value as { port?: number } & SeenByListener
          if (record.port !== undefined) {
            clearTimeout(timer)
            resolve(record.port)
          } else seen.push({ path: record.path, authorization: record.authorization })
        },
      }),
    )
  })
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGKILL')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
