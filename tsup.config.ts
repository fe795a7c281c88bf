import { defineConfig } from 'tsup'

export const entry = {
  index: 'src/index.ts',
  tools: 'src/conversation/tools.ts',
  actions: 'src/conversation/actions.ts',
  components: 'src/components/index.ts',
  theme: 'src/conversation/theme.ts',
  controller: 'src/controller/index.ts',
  store: 'src/store/index.ts',
  server: 'src/server/index.ts',
  client: 'src/client/index.ts',
  'ai-sdk': 'src/ai-sdk/index.ts',
  testing: 'src/testing/index.ts',
  'testing-vitest': 'src/testing/vitest.ts',
  'claude-code': 'src/agents/claude-code/index.ts',
  codex: 'src/agents/codex/index.ts',
  opencode: 'src/agents/opencode/index.ts',
  monitor: 'src/agents/monitor/index.ts',
  view: 'src/view/index.ts',
  react: 'renderers/react/index.ts',
  'react-remote': 'renderers/react/remote.ts',
  'react-actions': 'renderers/react/actions.ts',
  vue: 'renderers/vue/index.ts',
  // chatrail/svelte: its `.svelte` files stay external (scripts/build.ts copies them beside these
  // into dist/svelte/, the app's Svelte plugin compiles them); store.js is what plain Node loads.
  'svelte/index': 'renderers/svelte/index.ts',
  'svelte/store': 'renderers/svelte/store.ts',
  'svelte/actions': 'renderers/svelte/actions.ts',
  'svelte/approvals': 'renderers/svelte/approvals.ts',
  'svelte/kit': 'renderers/svelte/kit.ts',
  'svelte/parts-kit': 'renderers/svelte/parts-kit.ts',
  'svelte/message-ui': 'renderers/svelte/message-ui.ts',
  'svelte/markdown-kit': 'renderers/svelte/markdown-kit.ts',
  ink: 'renderers/ink/index.ts',
  devtools: 'renderers/devtools/index.ts',
  'devtools-server': 'src/devtools/index.ts',
  cli: 'src/cli/main.ts',
}

// scripts/build.ts (`npm run build`) has tsc emit the declarations first (tsconfig.build.json) and
// names their folder here: tsup then bundles those .d.ts files, about a sixth of the CPU time of
// compiling the sources a second time inside tsup (measured: ≈6 s against ≈95 s, plus tsc's ≈35 s).
// Run on its own (`npx tsup`), tsup compiles the declarations itself, as before.
const declarations = process.env.CHATRAIL_DECLARATIONS_DIR
const dts = declarations === undefined || declarations === ''
  ? true
  : { entry: Object.fromEntries(Object.entries(entry).map(([name, source]) => [name, `${declarations}/${source.replace(/\.tsx?$/, '.d.ts')}`])) }

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  dts,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  external: ['react', 'react-dom', 'ink', 'vue', 'svelte', /^svelte\//, /\.svelte$/, 'vitest', 'react/jsx-runtime', 'pg', '@electric-sql/pglite', 'better-sqlite3', 'markdown-to-jsx', 'ai', '@dagrejs/dagre', '@opentelemetry/api'],
})
