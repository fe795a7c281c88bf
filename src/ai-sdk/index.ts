// chatrail/ai-sdk: any AI SDK 6 language model as chatrail's agentic adapter. `ai` (>=6 <7) is an
// optional peer dependency that only this subpath loads.
export { aiSdkAdapter } from './ai-sdk-adapter.js'
export type { AiSdkAdapterOptions } from './ai-sdk-adapter.js'
export { ModelProviderError } from './provider-error.js'
export { toModelPrompt } from './model-messages.js'
export type { ModelPrompt } from './model-messages.js'
export { toModelTools } from './model-tools.js'
