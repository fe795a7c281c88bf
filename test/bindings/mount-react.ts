import type { BindingMount } from './binding-mount.js'
import { buildScenarioPage } from './scenario-page.js'

/** chatrail/react: `<ChatSession>` / `<RemoteChatSession>` (react-page/main.tsx). */
export const reactMount: BindingMount = {
  name: 'react',
  build: (outdir) => buildScenarioPage(new URL('./react-page/main.tsx', import.meta.url), outdir),
}
