/**
 * The React functions the `chatrail/react` entry's own modules call, imported in one place.
 * A bundler that leaves React external (esbuild, as scripts/size.ts measures) keeps one
 * `import { … } from "react"` per module that imports it; importing from here instead leaves
 * one for the whole entry chunk (about 0.1 kB gzip less). Lazily loaded modules (the message,
 * dialog, extras and component UIs) import `react` themselves: importing this module too would
 * make the bundler split it into a chunk shared with the entry, one more request for the page.
 */
export { createContext, Suspense, use, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
