// What the benches load from the bundled build (see bundled.ts): the public entries they measure.
export { createChatController } from '../../src/controller/index.js'
export { validateDefinition } from '../../src/conversation/definition-schema.js'
export { lintDefinition } from '../../src/conversation/tools.js'
export { commandRoute, createChatSession, defineChat } from '../../src/index.js'
export { scriptedAdapter } from '../../src/testing/scripted-adapter.js'
