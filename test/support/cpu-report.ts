import { appendFileSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll } from 'vitest'

/**
 * Where the suite's time goes (issue 27): with CHATRAIL_TEST_CPU_REPORT=<file>, every test file
 * appends one JSON line to <file> — its wall time and the CPU seconds its worker used while it ran,
 * its own and its finished children's (the agent CLIs, Chromium, tsx and PGlite processes it
 * started and reaped), read from /proc/self/stat. On a two-core machine the suite is bound by CPU,
 * not by the number of workers, so this is the table to cut from. `scripts/cpu-report.ts` sums it.
 * Without the variable (or off Linux) it does nothing.
 */

const target = process.env.CHATRAIL_TEST_CPU_REPORT
// USER_HZ: Linux reports these fields in 1/100 s on every architecture Node supports.
const ticksPerSecond = 100

interface CpuTicks {
  self: number
  children: number
}

function cpuTicks(): CpuTicks | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime, stime, cutime, cstime are fields 14-17 of the whole line: 12-15 counted from state.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number)
    return { self: (utime ?? 0) + (stime ?? 0), children: (cutime ?? 0) + (cstime ?? 0) }
  } catch {
    return undefined
  }
}

if (target !== undefined && target !== '') {
  // Taken when vitest runs this setup file, before the test file is imported: import and transform
  // time are part of what a file costs.
  const start = cpuTicks()
  const startedAt = performance.now()
  let file: string | undefined
  // vitest reads a hook's first parameter as a fixture list and requires a destructuring pattern there.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(({}, suite) => {
    file = 'filepath' in suite ? suite.filepath : suite.file.filepath
  })
  afterAll(() => {
    const end = cpuTicks()
    if (start === undefined || end === undefined || file === undefined) return
    const line = {
      file: file.slice(process.cwd().length + 1),
      wallSeconds: Number(((performance.now() - startedAt) / 1000).toFixed(2)),
      cpuSeconds: Number(((end.self - start.self) / ticksPerSecond).toFixed(2)),
      childCpuSeconds: Number(((end.children - start.children) / ticksPerSecond).toFixed(2)),
    }
    appendFileSync(target, `${JSON.stringify(line)}\n`)
  })
}
