// Captures the screen of a short `npm start` session into docs/demo-screen.txt (the README's
// quick start shows it; test/ink/demo-screen.test.ts keeps the three in step).
// Run: npx tsx test/ink/capture-demo-screen.ts [--agent offline]
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from './demo-driver.js'
import { captureDemoScreen } from './demo-screen.js'

const file = join(projectRoot, 'docs', 'demo-screen.txt')
writeFileSync(file, await captureDemoScreen(process.argv.slice(2)))
process.stdout.write(`wrote ${file}\n`)
