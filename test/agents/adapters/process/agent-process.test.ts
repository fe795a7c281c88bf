import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startAgentProcess } from '../../../../src/agents/process/agent-process.js'
import { isProcessAlive, listDescendantPids } from '../../../../src/agents/process/kill-process-tree.js'

const node = process.execPath
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatrail-process-'))
  dirs.push(dir)
  return dir
}

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A shell script that starts three long-lived processes that try to outlive it, and records their pids. */
function stubbornTree(dir: string): string {
  const script = join(dir, 'tree.sh')
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `sleep 300 & echo $! >> ${dir}/pids`,
      // Ignores SIGTERM: only the SIGKILL after the grace period ends it.
      `sh -c 'trap "" TERM; while true; do sleep 1; done' & echo $! >> ${dir}/pids`,
      // Leaves the process group: only the /proc descendant walk finds it.
      `setsid sleep 300 & echo $! >> ${dir}/pids`,
      'echo ready',
      'wait',
    ].join('\n'),
    { mode: 0o755 },
  )
  return script
}

describe('startAgentProcess', () => {
  it('reads stdout line by line in order and keeps the tail of stderr', async () => {
    const lines: string[] = []
    const child = startAgentProcess({
      bin: node,
      args: ['-e', "process.stdout.write('one\\ntwo\\nthr'); setTimeout(() => { process.stdout.write('ee\\n'); process.stderr.write('bad thing\\n'); process.exit(3) }, 30)"],
      onLine: (line) => lines.push(line),
    })
    const exit = await child.exited
    expect(lines).toEqual(['one', 'two', 'three'])
    expect(exit).toEqual({ kind: 'exited', code: 3, signal: null, stderr: 'bad thing' })
  })

  it('passes arguments verbatim, without a shell: metacharacters and leading dashes stay text', async () => {
    const dir = tempDir()
    const lines: string[] = []
    const tricky = ['--help', '$(touch pwned)', '; rm -rf /', '`id`', "it's \"quoted\""]
    const script = join(dir, 'echo-args.mjs')
    writeFileSync(script, 'console.log(JSON.stringify(process.argv.slice(2)))')
    const child = startAgentProcess({ bin: node, args: [script, ...tricky], cwd: dir, onLine: (line) => lines.push(line) })
    await child.exited
    expect(JSON.parse(lines[0] ?? '[]')).toEqual(tricky)
    expect(() => readFileSync(join(dir, 'pwned'))).toThrow()
  })

  it('reports a missing binary as data (ENOENT), never as a throw', async () => {
    const child = startAgentProcess({ bin: 'chatrail-no-such-binary-4242', args: [], onLine: () => undefined })
    const exit = await child.exited
    expect(exit.kind).toBe('spawn-failed')
    expect(exit.kind === 'spawn-failed' && exit.code).toBe('ENOENT')
    // Writing to and terminating a process that never started are harmless.
    child.writeLine('ignored')
    child.endInput()
    await expect(child.terminate(10)).resolves.toEqual(exit)
  })

  it('writes lines to stdin until it is closed', async () => {
    const lines: string[] = []
    const child = startAgentProcess({
      bin: node,
      args: ['-e', "process.stdin.on('data', (d) => process.stdout.write(String(d).toUpperCase()))"],
      onLine: (line) => lines.push(line),
    })
    child.writeLine('hello')
    child.writeLine('world')
    child.endInput()
    child.writeLine('after close')
    await child.exited
    expect(lines).toEqual(['HELLO', 'WORLD'])
  })

  it('terminate() ends the whole tree: the group, a SIGTERM-ignoring child (SIGKILL after grace) and a setsid escapee', async () => {
    const dir = tempDir()
    const lines: string[] = []
    const child = startAgentProcess({ bin: stubbornTree(dir), args: [], onLine: (line) => lines.push(line) })
    await waitFor(() => lines.includes('ready'))
    const pids = readFileSync(join(dir, 'pids'), 'utf8').trim().split('\n').map(Number)
    expect(pids).toHaveLength(3)
    expect(pids.every(isProcessAlive)).toBe(true)
    const started = Date.now()
    const exit = await child.terminate(400)
    expect(exit.kind).toBe('exited')
    // The TERM-ignoring child forced the SIGKILL path: it took at least the grace period.
    expect(Date.now() - started).toBeGreaterThanOrEqual(350)
    expect(pids.filter(isProcessAlive)).toEqual([])
    expect(child.pid !== undefined && isProcessAlive(child.pid)).toBe(false)
  })

  it('terminate() also ends a process its parent abandoned mid-run (re-parented to init, own session)', async () => {
    const dir = tempDir()
    const lines: string[] = []
    // The setsid'd shell starts `sleep 300`, lingers long enough to be sampled, then exits: the
    // sleep is orphaned outside the group, and no longer a descendant when terminate() runs.
    const script = `setsid sh -c 'sleep 300 & echo $! > ${dir}/orphan; sleep 0.8' & sleep 1.6; echo ready; sleep 300`
    const child = startAgentProcess({ bin: 'sh', args: ['-c', script], onLine: (line) => lines.push(line) })
    await waitFor(() => lines.includes('ready'))
    const orphan = Number(readFileSync(join(dir, 'orphan'), 'utf8').trim())
    expect(isProcessAlive(orphan)).toBe(true)
    expect(listDescendantPids(child.pid as number)).not.toContain(orphan)
    await child.terminate(300)
    expect(isProcessAlive(orphan)).toBe(false)
  })

  it('kills live agent process trees when the owning Node process exits', async () => {
    const dir = tempDir()
    const modulePath = resolve('src/agents/process/agent-process.ts')
    const owner = join(dir, 'owner.mts')
    writeFileSync(
      owner,
      [
        `import { startAgentProcess } from ${JSON.stringify(modulePath)}`,
        `const child = startAgentProcess({ bin: ${JSON.stringify(stubbornTree(dir))}, args: [], onLine: (line) => { if (line === 'ready') process.exit(0) } })`,
        'void child',
      ].join('\n'),
    )
    const ownerProcess = spawn(node, ['--import', 'tsx', owner], { stdio: 'ignore' })
    await new Promise((r) => ownerProcess.once('exit', r))
    const pids = readFileSync(join(dir, 'pids'), 'utf8').trim().split('\n').map(Number)
    expect(pids).toHaveLength(3)
    await waitFor(() => pids.every((pid) => !isProcessAlive(pid)), 3000)
  })
})

describe('listDescendantPids', () => {
  it('finds children and grandchildren of a process', async () => {
    const dir = tempDir()
    const lines: string[] = []
    const child = startAgentProcess({ bin: stubbornTree(dir), args: [], onLine: (line) => lines.push(line) })
    await waitFor(() => lines.includes('ready'))
    const pids = readFileSync(join(dir, 'pids'), 'utf8').trim().split('\n').map(Number)
    const descendants = listDescendantPids(child.pid as number)
    for (const pid of pids) expect(descendants).toContain(pid)
    await child.terminate(200)
    expect(pids.filter(isProcessAlive)).toEqual([])
  })
})
