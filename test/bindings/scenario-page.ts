import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { BuildOptions } from 'esbuild'

/**
 * Builds one binding's scenario page (test/bindings/*-page/main.*) with esbuild as an app's
 * production build would be (ESM, code splitting, `NODE_ENV` "production"), plus the page around
 * the chat that every binding shares: the app header with the agent-call counter (scenario-app/page.ts
 * updates it) and `#root`, where the binding mounts, filling the rest.
 */
export async function buildScenarioPage(entry: URL, outdir: string, options: Pick<BuildOptions, 'define' | 'plugins' | 'alias' | 'conditions'> = {}): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true, format: 'esm', splitting: true, outdir, platform: 'browser', target: 'es2022', jsx: 'automatic', logLevel: 'warning',
    ...options,
    define: { 'process.env.NODE_ENV': '"production"', ...options.define },
  })
  mkdirSync(outdir, { recursive: true })
  writeFileSync(`${outdir}index.html`, SCENARIO_HTML)
}

const SCENARIO_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>chatrail · binding scenarios</title>
<link rel="stylesheet" href="/main.css">
<style>
:root { color-scheme: light; --page-bg: #ffffff; --page-fg: #1b1f24; --page-muted: #57606a; }
@media (prefers-color-scheme: dark) { :root { color-scheme: dark; --page-bg: #0f1419; --page-fg: #e6edf3; --page-muted: #9ba6b2; } }
html, body { height: 100%; margin: 0; background: var(--page-bg); color: var(--page-fg); font: 15px/1.45 system-ui, sans-serif; }
[data-app] { display: flex; flex-direction: column; height: 100dvh; max-width: 720px; margin: 0 auto; }
[data-app-header] { display: flex; align-items: baseline; justify-content: space-between; gap: 8px; padding: 10px 12px; }
[data-app-header] h1 { margin: 0; font-size: 17px; }
[data-app-header] p { margin: 0; font-size: 13px; color: var(--page-muted); }
#root { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
#root > [data-chatrail-chat] { flex: 1 1 auto; min-height: 0; }
</style>
</head>
<body>
<main data-app="">
<header data-app-header=""><h1>Support</h1><p>Agent calls: <output data-testid="agent-calls">0</output></p></header>
<div id="root"></div>
</main>
<script type="module" src="/main.js"></script>
</body>
</html>
`
