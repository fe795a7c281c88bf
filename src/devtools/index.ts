// chatrail/devtools/server: the devtools JSON API handler, its shapes, and export as a test. The
// page (<ChatDevtools>, chatrail/devtools) is its own entry; nothing here loads React.
export { createDevtoolsHandler } from './create-devtools-handler.js'
export type { DevtoolsHandler, DevtoolsHandlerOptions, ExportModuleRef } from './create-devtools-handler.js'
export { exportConversation } from './export-conversation.js'
export type { ExportOptions } from './export-conversation.js'
export { maskText } from './redact.js'
export { DEFAULT_DEVTOOLS_BASE_PATH, DEVTOOLS_API_VERSION } from './devtools-api.js'
export type {
  ConversationChangedEvent,
  ConversationDetail,
  ConversationDetailPage,
  ConversationDetailQuery,
  ConversationExport,
  ConversationListItem,
  ConversationListPage,
  ConversationListQuery,
  DefinitionList,
  DevtoolsAdapterCall,
  DevtoolsDecisionRecord,
  DevtoolsDefinition,
  DevtoolsDefinitionRef,
  DevtoolsErrorBody,
  DevtoolsExplainedTurn,
  DevtoolsExplanation,
  DevtoolsMessage,
  DevtoolsReadyEvent,
  DevtoolsRouteExplanation,
  DevtoolsRouteInfo,
  DevtoolsSignature,
  DevtoolsStateInfo,
  DevtoolsTimings,
  DevtoolsTransition,
  DevtoolsTurn,
  DevtoolsTurnKind,
  MessageExplanation,
  WhatIfRequest,
  WhatIfResponse,
} from './devtools-api.js'
