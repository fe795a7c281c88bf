import { createChatController } from '../../../src/index.js'
console.log(typeof createChatController)
