import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/**
 * Issue 32 § 2, measured side by side: `defineChat` + the first `createChatSession` of a new
 * 10,000-route definition (two states `a ⇄ b` on `go`, 10,000 command routes firing it), chatrail
 * against AgentsKit Chat, CPU time. The peer's code never enters this repository: pass the folders
 * of its two checkouts (AgentsKit Chat at 9836963, AgentsKit at 5cb1c6d, the commits the issue
 * names; each with its packages/ tree), and this bundles both libraries from source with esbuild into
 * a temp folder (production `NODE_ENV`, as an app ships them), then times them.
 *
 *   npx tsx scripts/peer-first-setup.ts --chat <agentskit-chat checkout> --core <agentskit checkout> [--routes 10000] [--runs 3]
 *
 * The peer needs `zod` and `@noble/hashes` (its protocol package's dependencies) resolvable from
 * its checkout or from here. Each library runs in processes of its own, alternating (A B A B …):
 * in one process the second library's run pays for the first one's garbage (a full collection right
 * before the peer's setup made chatrail's next setup take twice its time, and no chatrail code ran
 * in between), so the figure would say more about the collector's debt than about either library.
 * Every process builds a fresh route table per round outside the timed part, collects garbage, then
 * times the setup; it prints the median of its rounds after a warm-up. The ratio of each pair of
 * processes is reported, and their spread.
 */

const args = process.argv.slice(2)
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? undefined : args[at + 1]
}
const chatDir = option('chat')
const coreDir = option('core')
if (chatDir === undefined || coreDir === undefined) {
  process.stderr.write('usage: tsx scripts/peer-first-setup.ts --chat <agentskit-chat checkout> --core <agentskit checkout> [--routes 10000] [--runs 3]\n')
  process.exit(2)
}
const routes = Number(option('routes') ?? 10_000)
const runs = Number(option('runs') ?? 3)
const root = fileURLToPath(new URL('..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'chatrail-peer-'))
const production = { 'process.env.NODE_ENV': '"production"' }

await build({
  entryPoints: [join(resolve(chatDir), 'packages/chat/src/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: join(work, 'peer.mjs'),
  define: production,
  logLevel: 'error',
  nodePaths: [join(resolve(chatDir), 'node_modules'), join(root, 'node_modules')],
  alias: {
    '@agentskit/core/memory-validation': join(resolve(coreDir), 'packages/core/src/memory-validation.ts'),
    '@agentskit/core': join(resolve(coreDir), 'packages/core/src/index.ts'),
    '@agentskit/statechart': join(resolve(coreDir), 'packages/statechart/src/index.ts'),
    '@agentskit/memory/web-storage': join(resolve(coreDir), 'packages/memory/src/web-storage.ts'),
    '@agentskit/chat-protocol': join(resolve(chatDir), 'packages/protocol/src/index.ts'),
  },
})
await build({
  entryPoints: [join(root, 'src/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: join(work, 'chatrail.mjs'),
  define: production,
  logLevel: 'error',
  external: ['@electric-sql/pglite', 'pg'],
})

// One library per process: `node timing.mjs chatrail|peer <routes>` prints its median setup in ms.
writeFileSync(join(work, 'timing.mjs'), `
const [library, count] = [process.argv[2], Number(process.argv[3])]
const lib = await import(library === 'peer' ? './peer.mjs' : './chatrail.mjs')
const adapter = { createSource: () => ({ async *stream() { yield { type: 'done' } }, abort() {} }) }
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const states = { a: { on: { go: 'b' } }, b: { on: { go: 'a' } } }
function round() {
  const routes = Array.from({ length: count }, (_, i) => lib.commandRoute({ id: 'r' + i, command: '/cmd' + i, event: 'go', response: library === 'peer' ? () => 'resp' + i : 'resp' + i }))
  globalThis.gc()
  const start = cpu()
  const definition = lib.defineChat({ id: 'ring', chat: { adapter }, conversation: { initial: 'a', states, routes } })
  const session = library === 'peer' ? lib.createChatSession(definition, { sessionId: 's1' }) : lib.createChatSession(definition, { sessionId: 's1', lint: false })
  const ms = cpu() - start
  if (!session) throw new Error('no session')
  return ms
}
for (let i = 0; i < 20; i++) round()
const times = Array.from({ length: 40 }, round).sort((a, b) => a - b)
process.stdout.write(String(times[20]))
`)

const time = (library: 'chatrail' | 'peer'): number =>
  Number(execFileSync(process.execPath, ['--expose-gc', join(work, 'timing.mjs'), library, String(routes)], { cwd: work, encoding: 'utf8' }))

for (let run = 1; run <= runs; run++) {
  const ratios: number[] = []
  const ours: number[] = []
  const peer: number[] = []
  for (let pair = 0; pair < 6; pair++) {
    // A B, then B A: neither library always runs on the machine the other just warmed
    const [a, b] = pair % 2 === 0 ? [time('chatrail'), time('peer')] : [time('peer'), time('chatrail')].reverse() as [number, number]
    ours.push(a)
    peer.push(b)
    ratios.push(a / b)
  }
  const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? Number.NaN
  process.stdout.write(`run ${run}: ${routes} routes, defineChat + first createChatSession, CPU ms (median of process medians): chatrail ${median(ours).toFixed(2)}, AgentsKit Chat ${median(peer).toFixed(2)}; ratio ${median(ratios).toFixed(2)}× (pairs ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})\n`)
}
