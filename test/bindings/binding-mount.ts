/**
 * One web binding (React, Vue, Svelte) as the shared Chromium scenario suite mounts it
 * (test/bindings/binding-scenarios.ts, run by one `<name>-scenarios-browser.test.ts` per binding):
 * every binding builds the same scenario app (the definition in test/bindings/scenario-app/) into a
 * page, and the one scenario definition drives every page by role and accessible name, so a
 * behaviour that drifts between bindings fails there.
 */
export interface BindingMount {
  /** 'react' | 'vue' | 'svelte': names the describe block and the build folder. */
  name: string
  /**
   * Builds the scenario page into `outdir` (ending in `/`): `index.html` loading `/main.js` (and
   * `/main.css`). The page reads `?mode=local` (the session runs in the page) or `?mode=remote`
   * (it talks to the chatrail server the suite serves at `/api/chat`).
   */
  build: (outdir: string) => Promise<void>
}
