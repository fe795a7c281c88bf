import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '../styles.css'
import './page.css'
import { DevtoolsPage } from './devtools-page.js'

// The page `chatrail serve` serves at /devtools/: built for the browser by src/cli/serve/build-page.ts (buildDevtoolsPage).
const root = document.getElementById('root')
if (root === null) throw new Error('the page has no #root element')
createRoot(root).render(<StrictMode><DevtoolsPage /></StrictMode>)
