import { readFileSync } from 'node:fs'

// Sums the lines test/support/cpu-report.ts wrote (CHATRAIL_TEST_CPU_REPORT=<file> npm test):
// the whole run's CPU seconds, and the files that cost the most, own and children's CPU apart.
// Usage: npx tsx scripts/cpu-report.ts <file> [how many files, default 30]

interface Line {
  file: string
  wallSeconds: number
  cpuSeconds: number
  childCpuSeconds: number
}

const [path, count = '30'] = process.argv.slice(2)
if (path === undefined) {
  process.stderr.write('usage: tsx scripts/cpu-report.ts <report.jsonl> [files to list]\n')
  process.exit(2)
}
const lines = readFileSync(path, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Line)
const total = (line: Line): number => line.cpuSeconds + line.childCpuSeconds
const sum = (pick: (line: Line) => number): string => lines.reduce((acc, line) => acc + pick(line), 0).toFixed(0)
process.stdout.write(`${lines.length} files: ${sum(total)} CPU s (${sum((line) => line.cpuSeconds)} in the workers, ${sum((line) => line.childCpuSeconds)} in their children), ${sum((line) => line.wallSeconds)} wall s summed over files\n\n`)
process.stdout.write('  cpu s  own s  child s  wall s  file\n')
for (const line of [...lines].sort((a, b) => total(b) - total(a)).slice(0, Number(count))) {
  process.stdout.write(`${total(line).toFixed(1).padStart(7)}${line.cpuSeconds.toFixed(1).padStart(7)}${line.childCpuSeconds.toFixed(1).padStart(9)}${line.wallSeconds.toFixed(1).padStart(8)}  ${line.file}\n`)
}
