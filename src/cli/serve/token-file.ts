import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'

/**
 * `chatrail serve --token-file <path>`: the bearer secret read from a file, so it never sits in the
 * process's command line (`/proc/<pid>/cmdline` and `ps` show that to every local user). Like ssh
 * with a private key, a file that group or others may read is refused (the secret would be theirs
 * too), as is one owned by another user (they could change it) or anything but a regular file
 * (a FIFO would block the start). The secret is the file's text without the surrounding
 * whitespace (a trailing newline from `echo` is not part of it). Returns the secret or an error line.
 */

const MAX_TOKEN_FILE_BYTES = 64 * 1024

export function readTokenFile(path: string, platform: NodeJS.Platform = process.platform): { token: string } | { error: string } {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    return { error: `--token-file ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}` }
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) return { error: `--token-file ${path} is not a regular file` }
    if (platform !== 'win32') {
      if ((stats.mode & 0o077) !== 0) {
        return { error: `--token-file ${path} is readable by others (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}): anyone who can read it has the token. Run chmod 600 ${path}` }
      }
      const uid = process.getuid?.()
      if (uid !== undefined && stats.uid !== uid && stats.uid !== 0) return { error: `--token-file ${path} belongs to another user (uid ${stats.uid}), who could change the token; use a file of your own (chmod 600)` }
    }
    if (stats.size > MAX_TOKEN_FILE_BYTES) return { error: `--token-file ${path} is ${stats.size} bytes; a token file holds one secret (at most 64 KiB)` }
    const buffer = Buffer.alloc(stats.size)
    let read = 0
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read)
      if (n === 0) break
      read += n
    }
    const token = buffer.subarray(0, read).toString('utf8').trim()
    if (token === '') return { error: `--token-file ${path} is empty; write the secret into it (e.g. openssl rand -hex 32 > ${path})` }
    return { token }
  } finally {
    closeSync(fd)
  }
}
