/**
 * Resolves when this process's parent is gone (we were re-parented), polled every `everyMs`
 * (unref'd: it never keeps the process alive); `stop()` ends the watch.
 *
 * Why: `npx chatrail serve` runs the CLI as `npm → sh -c chatrail … → node`, and a SIGTERM to npx
 * reaches only the `sh`, which dies without passing it on, so the server went on holding its port
 * with nobody left to stop it. The CLI watches its parent only when npm started it (`npm_command`
 * is set: `exec` for npx, `run` for `npm run`): a server started by `nohup` or a service manager
 * outlives its parent on purpose and is left alone.
 */
export function watchParent(options: { everyMs?: number; ppid?: () => number } = {}): { gone: Promise<void>; stop: () => void } {
  const ppid = options.ppid ?? (() => process.ppid)
  const first = ppid()
  let timer: ReturnType<typeof setInterval> | undefined
  const gone = new Promise<void>((resolve) => {
    timer = setInterval(() => {
      if (ppid() === first) return
      clearInterval(timer)
      resolve()
    }, options.everyMs ?? 500)
    timer.unref()
  })
  return { gone, stop: () => clearInterval(timer) }
}
