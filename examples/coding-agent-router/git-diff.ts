import { execFile } from 'node:child_process'

/**
 * `git diff` of the agent's working directory, run with execFile (no shell, no model). Resolves to
 * the diff text, "" when nothing changed, or a one-line reason when git cannot answer (not a
 * repository, git missing). Never rejects: a route's answer is always text.
 */
export function gitDiff(cwd: string, options: { maxBytes?: number } = {}): Promise<{ ok: true; diff: string } | { ok: false; reason: string }> {
  const maxBuffer = options.maxBytes ?? 1024 * 1024
  return new Promise((resolve) => {
    execFile('git', ['--no-pager', 'diff', '--no-color', '--no-ext-diff'], { cwd, maxBuffer, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      if (error) {
        const reason = (stderr.trim().split('\n')[0] ?? '') || error.message
        resolve({ ok: false, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed' : reason })
        return
      }
      resolve({ ok: true, diff: stdout })
    })
  })
}
