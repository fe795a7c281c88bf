// A process on one PGlite directory, for the directory-lock tests. Usage (argv after the script):
//   append <dir> <mode> <prefix> <n> <hold|exit|linger>
// Opens pgliteStore on <dir> (<mode>: auto, abstract or file, the lock's kind), appends <n> messages
// to the conversation "shared" one write each, and prints one JSON line:
//   {"pid":…, "acked":n}   every append succeeded
//   {"pid":…, "acked":k, "error":{ code, message, hint, directory, holder }}   the store refused
// then `hold`: waits to be killed; `exit`: closes the store and exits; `linger`: neither closes
// nor exits (the test checks the lock does not keep the process alive).
import type { Message } from '../../../src/contract/message.js'
import { ChatrailError } from '../../../src/contract/errors.js'
import { isStoreUnavailableError } from '../../../src/store/index.js'
import { pgliteStoreWith } from '../../../src/store/pglite-store.js'
import type { LockMode } from '../../../src/store/directory-lock.js'

const [command, dir, mode, prefix, count, then] = process.argv.slice(2)
if (command !== 'append' || !dir || !mode || !prefix || !count || !then) throw new Error('usage: lock-child append <dir> <mode> <prefix> <n> <hold|exit|linger>')

const store = pgliteStoreWith({ dataDir: dir }, mode === 'auto' ? {} : { lockMode: mode as LockMode })
const definition = { id: 'lock', revision: 1 }
let acked = 0
let error: Record<string, unknown> | undefined
try {
  for (let i = 0; i < Number(count); i++) {
    const version = (await store.load('shared'))?.version ?? 0
    const message: Message = { id: `${prefix}-${i}`, role: 'user', content: `${prefix} ${i}`, status: 'complete', createdAt: new Date(0) }
    await store.append('shared', { expectedVersion: version, messages: [message], definition })
    acked++
  }
} catch (caught) {
  error = ChatrailError.isInstance(caught)
    ? { code: caught.code, message: caught.message, hint: caught.hint, ...(isStoreUnavailableError(caught) ? { directory: caught.directory, holder: caught.holder } : {}) }
    : { message: String(caught) }
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, acked, ...(error ? { error } : {}) })}\n`)
if (then === 'hold') setInterval(() => undefined, 60_000)
else if (then === 'exit') await store.close()
