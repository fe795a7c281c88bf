import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

// chatrail/server must run where only Web APIs exist (Next.js edge routes, Deno, Bun, workers), and
// the protocol codec also in browsers (chatrail/client): neither may load a `node:` module at run
// time, directly or through what it imports. esbuild bundles each entry for a neutral platform and
// lists every import left in the output.

async function runtimeImports(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'neutral', format: 'esm', logLevel: 'silent',
    external: ['zod', 'zod/*', 'eventsource-parser', 'yaml', 'fzstd', 'node:*'],
  })
  return Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((imported) => imported.path))
}

describe('runtime imports', () => {
  it('chatrail/server and the protocol codec load no node: module', async () => {
    const server = await runtimeImports('src/server/index.ts')
    const protocol = await runtimeImports('src/protocol/index.ts')
    expect(server.filter((path) => path.startsWith('node:'))).toEqual([])
    expect(protocol.filter((path) => path.startsWith('node:'))).toEqual([])
    expect(protocol).toContain('eventsource-parser') // the maintained SSE parser, not hand-written framing
  })

  it('chatrail/client loads no node: module and reads the stream with eventsource-parser', async () => {
    const client = await runtimeImports('src/client/index.ts')
    expect(client.filter((path) => path.startsWith('node:'))).toEqual([])
    expect(client).toContain('eventsource-parser')
  })

  it('the check sees a node: import when there is one (it can fail)', async () => {
    expect(await runtimeImports('test/store/postgres-env.ts')).toContain('node:crypto')
  })
})
