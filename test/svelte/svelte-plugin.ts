import type { Plugin } from 'esbuild'
import esbuildSvelte from 'esbuild-svelte'

/**
 * esbuild-svelte's plugin, compiling `.svelte` files for the browser with their styles left out
 * (chatrail/svelte's components carry none: renderers/react/styles.css styles them). The package
 * is CommonJS (`module.exports = plugin`) with ESM-style types, so under NodeNext its default
 * import is typed as the module while at run time it is the function: the cast says so once here.
 */
const plugin = esbuildSvelte as unknown as typeof esbuildSvelte.default

export function sveltePlugin(): Plugin {
  return plugin({ compilerOptions: { css: 'external' } })
}
