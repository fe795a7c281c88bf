import type { BindingMount } from './binding-mount.js'
import { buildScenarioPage } from './scenario-page.js'

/**
 * chatrail/vue: `<ChatSession>` (vue-page/main.ts), built with Vue's ESM bundler build as an app's
 * bundler would use it, its compile-time flags defined as a production build sets them.
 */
export const vueMount: BindingMount = {
  name: 'vue',
  build: (outdir) => buildScenarioPage(new URL('./vue-page/main.ts', import.meta.url), outdir, {
    define: { __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  }),
}
