import { spawn } from 'node:child_process'

/**
 * Runs a program with an argument array (never a shell) and a hard deadline, for the demo's
 * agent probes. The child gets its own process group, so a timeout ends it and whatever it
 * started. `until` lets a caller settle as soon as a stdout line proves what it needed.
 */

export interface BoundedRunOptions {
  /** Written to stdin, which is then closed (so a prompt is never an argument). */
  input?: string
  timeoutMs: number
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** Settle early (and end the child) when a stdout line satisfies this. */
  until?: (line: string) => boolean
  signal?: AbortSignal
}

export interface BoundedRunResult {
  /** The exit code; null when the child was ended by the deadline, `until`, an abort or a signal. */
  code: number | null
  stdout: string
  stderr: string
  /** `exit`, `timeout`, `until`, `aborted`, or `spawn-error` (e.g. the binary is missing). */
  ending: 'exit' | 'timeout' | 'until' | 'aborted' | 'spawn-error'
  error?: string
  durationMs: number
}

const outputCap = 64 * 1024

export function runBounded(bin: string, args: readonly string[], options: BoundedRunOptions): Promise<BoundedRunResult> {
  const started = Date.now()
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let pending = ''
    let settled = false
    const child = spawn(bin, [...args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    })

    const end = (): void => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }
    const settle = (result: Omit<BoundedRunResult, 'stdout' | 'stderr' | 'durationMs'>): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      if (result.ending !== 'exit' && result.ending !== 'spawn-error') end()
      resolve({ ...result, stdout, stderr, durationMs: Date.now() - started })
    }
    const onAbort = (): void => settle({ code: null, ending: 'aborted' })
    const timer = setTimeout(() => settle({ code: null, ending: 'timeout' }), options.timeoutMs)
    options.signal?.addEventListener('abort', onAbort)
    if (options.signal?.aborted === true) onAbort()

    child.stdout.setEncoding('utf8')
    child.stderr.setEncoding('utf8')
    child.stdout.on('data', (data: string) => {
      if (stdout.length < outputCap) stdout += data
      if (options.until === undefined) return
      pending += data
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      // A line that never ends is dropped past the cap: held whole it would outgrow a string (issue 28 item 7).
      if (pending.length > outputCap) pending = ''
      if (lines.some((line) => options.until?.(line) === true)) settle({ code: null, ending: 'until' })
    })
    child.stderr.on('data', (data: string) => {
      if (stderr.length < outputCap) stderr += data
    })
    child.on('error', (error) => settle({ code: null, ending: 'spawn-error', error: error.message }))
    child.on('close', (code) => settle({ code, ending: 'exit' }))
    child.stdin.on('error', () => {
      // The child may exit before reading its stdin (EPIPE); its exit code tells the story.
    })
    child.stdin.end(options.input ?? '')
  })
}
