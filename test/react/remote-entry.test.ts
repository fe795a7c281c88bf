import { describe, expect, it } from 'vitest'
import { measureEntry } from '../../scripts/size.js'

// Remote mode lives in its own subpath (chatrail/react/remote) so chatrail/react, at the edge of
// its 6 kB gzip budget, carries none of it: pages that run the session locally never load
// httpAdapter or the remote binding.
const REMOTE_FILES = ['remote-chat-binding.ts', 'use-remote-chat-session.ts', 'remote-chat-session.tsx', 'server-side-agent.ts', 'remote.ts'].map((file) => `renderers/react/${file}`)

describe('chatrail/react/remote', () => {
  it('chatrail/react holds none of the remote mode', async () => {
    const react = await measureEntry('chatrail/react', 'renderers/react/index.ts', { coreExternal: true })
    expect(react.inputs.filter((file) => REMOTE_FILES.includes(file) || file.startsWith('src/client/'))).toEqual([])
  })

  it('the remote hook and binding are small and import React and the core only', async () => {
    const hook = await measureEntry('useRemoteChatSession', 'renderers/react/use-remote-chat-session.ts', { coreExternal: true })
    expect(hook.imports.filter((name) => name !== 'chatrail' && !name.startsWith('chatrail/'))).toEqual(['react'])
    expect(hook.inputs.filter((file) => file.endsWith('.tsx'))).toEqual([])
    // 2.59 kB before issue #31 item 9; the server's versions (branchesOf, switchBranch, the switch request) added ≈ 0.28 kB
    expect(hook.gzipBytes).toBeLessThan(2_900)
  })

  it('chatrail/client is small and browser-safe', async () => {
    const client = await measureEntry('chatrail/client', 'src/client/index.ts')
    expect(client.imports).toEqual(['eventsource-parser', 'zod/mini'])
    // 2.75 kB before resumable streams; resuming a cut turn (read-turn.ts, resume-turn.ts) added ≈ 1.0 kB
    // 4.63 kB with issue 30: restored component parts and interactions, data-component parts read and checked
    // 5.14 kB with issue #31 items 9 and 10: versionPlaceOf, reasoning and sources restored, source-url parts read and checked (≈ 0.46 kB)
    expect(client.gzipBytes).toBeLessThan(5_200)
  })
})
