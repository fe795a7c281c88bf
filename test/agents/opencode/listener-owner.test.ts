import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { endianness, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isLoopbackHost, loopbackListenerUids } from '../../../src/agents/opencode/listener-owner.js'

/**
 * The /proc/net/tcp{,6} reading behind the foreign-listener check (issue 28 item 2), on tables
 * written the way the kernel prints them: which LISTEN rows accept a loopback connection to the
 * port (127.0.0.0/8, ::1, v4-mapped loopback, the wildcards), and whose uid each is. The live
 * check against a socket another user owns is in test/agents/monitor/opencode-foreign-listener.test.ts.
 */

const dir = mkdtempSync(join(tmpdir(), 'chatrail-procnet-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** An address as /proc prints it: each 32-bit word in host byte order. */
function procHex(bytes: number[]): string {
  const buffer = Buffer.from(bytes)
  if (endianness() === 'LE') for (let word = 0; word < buffer.length; word += 4) buffer.subarray(word, word + 4).reverse()
  return buffer.toString('hex').toUpperCase()
}

const v6 = (tail: number[]): number[] => [...Array.from({ length: 16 - tail.length }, () => 0), ...tail]
const row = (index: number, address: number[], port: number, state: string, uid: number): string =>
  `  ${index}: ${procHex(address)}:${port.toString(16).toUpperCase().padStart(4, '0')} ${procHex(address.map(() => 0))}:0000 ${state} 00000000:00000000 00:00000000 00000000 ${uid} 0 ${1000 + index} 1 0000000000000000 100 0 0 10 0`
const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode'

describe('loopbackListenerUids', () => {
  it('counts LISTEN rows on loopback and wildcard addresses at the port, with their uids', async () => {
    writeFileSync(
      join(dir, 'tcp'),
      [
        HEADER,
        row(0, [127, 0, 0, 1], 4096, '0A', 1001),
        row(1, [0, 0, 0, 0], 4096, '0A', 1002),
        row(2, [192, 168, 1, 5], 4096, '0A', 1003), // another interface: not reached by 127.0.0.1
        row(3, [127, 0, 0, 1], 4096, '01', 1004), // an established connection, not a listener
        row(4, [127, 0, 0, 1], 4097, '0A', 1005), // another port
        '',
      ].join('\n'),
    )
    writeFileSync(
      join(dir, 'tcp6'),
      [
        HEADER,
        row(0, v6([1]), 4096, '0A', 1006), // ::1
        row(1, v6([]), 4096, '0A', 1007), // ::
        row(2, v6([0xff, 0xff, 127, 0, 0, 1]), 4096, '0A', 1008), // ::ffff:127.0.0.1
        row(3, [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 4096, '0A', 1009), // 2001:db8::1
        '',
      ].join('\n'),
    )
    expect(await loopbackListenerUids(4096, dir)).toEqual([1001, 1002, 1006, 1007, 1008])
    expect(await loopbackListenerUids(4098, dir)).toEqual([])
  })

  it('is undefined where /proc/net cannot be read (nothing is checked there)', async () => {
    expect(await loopbackListenerUids(4096, join(dir, 'missing'))).toBeUndefined()
  })
})

describe('isLoopbackHost', () => {
  it('knows localhost, 127.0.0.0/8 and ::1, and nothing else', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'app.localhost'].map(isLoopbackHost)).toEqual([true, true, true, true, true])
    expect(['example.com', '10.0.0.1', '[2001:db8::1]', '128.0.0.1'].map(isLoopbackHost)).toEqual([false, false, false, false])
  })
})
