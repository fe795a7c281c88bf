import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '../react/styles.css'
import './page.css'
import { ServePage } from './serve-page.js'

// The page `chatrail serve` serves at /: built for the browser by src/cli/serve/build-page.ts.
const root = document.getElementById('root')
if (root === null) throw new Error('the page has no #root element')
createRoot(root).render(<StrictMode><ServePage /></StrictMode>)
