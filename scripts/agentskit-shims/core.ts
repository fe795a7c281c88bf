// `@agentskit/core` under chatrail's names, for AgentsKit Chat's define-chat suite
// (scripts/agentskit-chat-suite.ts). Renames only: no behaviour of its own.
import { ChatrailConfigError } from '../../src/index.js'
import { ComponentError } from '../../src/components/index.js'
import { ConfigError as ControllerConfigError } from '../../src/controller/index.js'

/**
 * AgentsKit throws one `ConfigError` for every refused configuration or input; chatrail names three:
 * `ChatrailConfigError` (a definition), the controller's `ConfigError`, and `ComponentError` (a
 * component or a choice refused where it is made). `toThrow(ConfigError)` is an `instanceof` check,
 * so this maps the class name only: it is never constructed by chatrail and decides nothing.
 */
export class ConfigError extends ChatrailConfigError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return ChatrailConfigError.isInstance(value) || ControllerConfigError.isInstance(value) || ComponentError.isInstance(value)
  }
}
export { createChatController } from '../../src/controller/index.js'
export type { AdapterFactory, AdapterRequest, StreamChunk } from '../../src/index.js'
