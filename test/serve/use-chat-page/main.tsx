import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './page.css'
import { UseChatPage } from './use-chat-page.js'

// The useChat test page (test/serve/use-chat-browser.test.ts), built with buildServePage({ entry }).
const root = document.getElementById('root')
if (root === null) throw new Error('the page has no #root element')
createRoot(root).render(<StrictMode><UseChatPage /></StrictMode>)
