import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

/**
 * A Postgres cluster of the test's own, started by .ci/postgres.sh, for tests that stop and start
 * the server (stopping the shared one would break the test files running next to them). The
 * command lines are fixed; the only values in them are our temp dir and port.
 */
export interface OwnPostgres {
  url: string
  stop: () => void
  start: () => void
  destroy: () => void
}

const script = join(import.meta.dirname, '..', '..', '..', '.ci', 'postgres.sh')

function run(command: string, args: string[]): void {
  const asPostgres = process.getuid?.() === 0
  const result = asPostgres ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}${result.stdout}`)
}

export function startOwnPostgres(): OwnPostgres {
  const started = spawnSync('bash', ['-c', 'source "$1" && chatrail_postgres_start && printf "%s\\n%s\\n%s\\n" "$CHATRAIL_TEST_POSTGRES_URL" "$CHATRAIL_POSTGRES_DIR" "$CHATRAIL_POSTGRES_BIN"', 'postgres.sh', script], { encoding: 'utf8' })
  if (started.status !== 0) throw new Error(`.ci/postgres.sh failed: ${started.stderr}`)
  const [url, dir, bin] = started.stdout.trim().split('\n') as [string, string, string]
  const port = new URL(url).port
  const pgCtl = join(bin, 'pg_ctl')
  return {
    url,
    stop: () => run(pgCtl, ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']),
    start: () => run(pgCtl, ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-w', '-o', `-k ${dir} -h 127.0.0.1 -p ${port}`, 'start']),
    destroy: () => {
      spawnSync('bash', ['-c', 'source "$1" && chatrail_postgres_stop "$2"', 'postgres.sh', script, dir], { encoding: 'utf8' })
    },
  }
}
