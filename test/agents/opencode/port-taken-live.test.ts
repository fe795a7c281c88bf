import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, portTakenOnStart, startOpencodeServerOn } from '../../../src/agents/opencode/adapter/opencode-server.js'
import type { OpencodeServerProcess } from '../../../src/agents/opencode/adapter/opencode-server.js'
import { OpencodeServerError } from '../../../src/agents/opencode/opencode-errors.js'
import { makeOpencodeHome, OPENCODE_BIN } from '../../support/opencode-cli.js'
import type { OpencodeHome } from '../../support/opencode-cli.js'

/**
 * The real `opencode serve` (opencode-ai 1.18.33) on a port another process took between chatrail's
 * pick and OpenCode's bind. OpenCode 1.18 then exits 1 saying only `Unexpected error` / `ServeError`,
 * which the retry did not recognise, so a start lost that race outright (a loaded run of the OpenCode
 * contract suite failed that way, its servers starting beside Postgres clients taking ephemeral ports).
 */

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const holder = createServer()
    holder.once('error', reject)
    holder.listen(port, '127.0.0.1', () => resolve(holder))
  })
}

describe('opencode serve on a port taken after the pick', () => {
  let home: OpencodeHome
  let holder: Server
  let takenPort: number
  let server: OpencodeServerProcess | undefined

  beforeAll(async () => {
    // nothing answers at this model URL: the server only has to start and listen
    home = makeOpencodeHome({ modelUrl: 'http://127.0.0.1:9', prefix: 'chatrail-oc-port-' })
    takenPort = await freePort()
    holder = await listenOn(takenPort)
  })

  afterAll(async () => {
    await server?.stop()
    await new Promise((resolve) => holder.close(resolve))
    home.cleanup()
  })

  it('is started again on another port: the first pick was taken, the second listens', async () => {
    const picks: number[] = []
    server = await startOpencodeServerOn({ bin: OPENCODE_BIN, cwd: home.cwd, env: home.env, startTimeoutMs: 60_000, graceMs: 2000 }, async () => {
      const port = picks.length === 0 ? takenPort : await freePort()
      picks.push(port)
      return port
    })
    expect(picks).toHaveLength(2)
    expect(picks[0]).toBe(takenPort)
    expect(server.url).toBe(`http://127.0.0.1:${picks[1]}`)
  }, 120_000)

  it('is not retried on a port the caller named: the error says the server exited before it listened', async () => {
    const start = startOpencodeServerOn({ bin: OPENCODE_BIN, cwd: home.cwd, env: home.env, startTimeoutMs: 60_000, graceMs: 2000, port: takenPort }, () => Promise.reject(new Error('not asked')))
    const error: unknown = await start.then(() => undefined, (reason: unknown) => reason)
    expect(OpencodeServerError.isInstance(error) && error.code).toBe('OPENCODE_EXITED')
    expect(portTakenOnStart(error)).toBe(true)
  }, 120_000)
})
