/**
 * The component UI chunk of `chatrail/react`, loaded (component-ui-loader.ts) the first time a
 * message holds a component part: the standard catalog's twelve views, the props check (with
 * zod/mini's standard schemas) and the dispatch to the app's own views. Until it is in, or if it
 * fails to load, each component shows its fallback summary (component-slot.tsx).
 */
export { ComponentPartView } from './component-part-view.js'
