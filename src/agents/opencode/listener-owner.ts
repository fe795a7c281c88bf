import { readFile } from 'node:fs/promises'
import { endianness } from 'node:os'
import { OpencodeServerError } from './opencode-errors.js'

/**
 * Who owns the socket a loopback URL would reach (issue 28). 127.0.0.1 is shared by every user of
 * the machine, and OpenCode's default port is free whenever OpenCode is not running: another user
 * can listen there, collect the password a client sends and answer with forged sessions. On Linux
 * the kernel says who owns each listening socket (`/proc/net/tcp` and `tcp6`: the `uid` column of
 * the LISTEN rows), so before a request to a loopback URL the client checks that every socket that
 * would accept the connection (bound to that port on a loopback or wildcard address) belongs to the
 * current user, and refuses the server otherwise, before sending anything.
 *
 * Limits: where `/proc/net` cannot be read (macOS, Windows) nothing is checked; a socket handed
 * over between the check and the connection (a few milliseconds) is not seen.
 */

const LISTEN = '0A'

/** `localhost`, 127.0.0.0/8 and `::1` (URL hostnames: IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/**
 * The uids of the listening sockets on `port` that accept loopback connections, from
 * `<procNet>/tcp` and `tcp6`; `undefined` when neither can be read (not Linux).
 */
export async function loopbackListenerUids(port: number, procNet = '/proc/net'): Promise<number[] | undefined> {
  const tables = await Promise.all(['tcp', 'tcp6'].map((name) => readFile(`${procNet}/${name}`, 'utf8').catch(() => undefined)))
  if (tables.every((table) => table === undefined)) return undefined
  const uids: number[] = []
  for (const table of tables) {
    for (const line of (table ?? '').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      const [address, portHex] = (fields[1] ?? '').split(':')
      if (fields[3] !== LISTEN || address === undefined || portHex === undefined || Number.parseInt(portHex, 16) !== port) continue
      const uid = Number(fields[7])
      if (Number.isInteger(uid) && acceptsLoopback(address)) uids.push(uid)
    }
  }
  return uids
}

/**
 * `undefined` when `baseUrl` may be asked: not a loopback URL, no `/proc/net`, nothing listening
 * (the request is refused anyway), or every listener is the current user's; else the
 * `OPENCODE_FOREIGN_LISTENER` error to throw instead of sending a request.
 */
export async function foreignListenerError(baseUrl: string, uid: number | undefined = process.getuid?.()): Promise<OpencodeServerError | undefined> {
  if (uid === undefined) return undefined
  const url = new URL(baseUrl)
  if (!isLoopbackHost(url.hostname)) return undefined
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  const owners = await loopbackListenerUids(port)
  const foreign = owners?.find((owner) => owner !== uid)
  if (foreign === undefined) return undefined
  return new OpencodeServerError({
    code: 'OPENCODE_FOREIGN_LISTENER',
    message: `The server at ${url.origin} is not yours: the socket listening on port ${port} belongs to uid ${foreign}, not to you (uid ${uid}). Nothing was sent to it.`,
    hint: `Another local user may have taken the port while your OpenCode server was not running. Start yours on a free port (\`opencode serve --port <n>\`) and pass that URL.`,
    url: baseUrl,
  })
}

/** A LISTEN row's local address (hex, as /proc prints it) is loopback or the wildcard. */
function acceptsLoopback(hex: string): boolean {
  const bytes = addressBytes(hex)
  if (bytes === undefined) return false
  if (bytes.every((byte) => byte === 0)) return true // 0.0.0.0 or ::
  if (bytes.length === 4) return bytes[0] === 127
  const v4Mapped = bytes.subarray(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff
  if (v4Mapped) return bytes[12] === 127 || bytes.subarray(12).every((byte) => byte === 0)
  return bytes.subarray(0, 15).every((byte) => byte === 0) && bytes[15] === 1 // ::1
}

/** /proc prints each 32-bit word of the address in host byte order. */
function addressBytes(hex: string): Buffer | undefined {
  if (!/^[0-9A-Fa-f]{8}$|^[0-9A-Fa-f]{32}$/.test(hex)) return undefined
  const bytes = Buffer.from(hex, 'hex')
  if (endianness() === 'LE') for (let word = 0; word < bytes.length; word += 4) bytes.subarray(word, word + 4).reverse()
  return bytes
}
