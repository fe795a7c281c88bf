// The conversation core's public surface; `src/index.ts` re-exports these names.
export { ChatrailConfigError, isChatrailConfigError } from './config-error.js'
export type { ConfigIssue } from './config-error.js'
export { formatConfigIssues, toDotPath } from './config-issues-format.js'
export { readDecisionRecord } from './decision-record.js'
export type { DecisionRecord } from './decision-record.js'
export type { RecordKey } from './record-signing.js'
export { defineChat } from './define-chat.js'
export type {
  ChatConfigInput,
  ChatDefinition,
  ChatDefinitionInput,
  ConversationDefinition,
  FallbackContext,
  FallbackDefinition,
  FallbackOutput,
  FallbackResponse,
  StateDefinition,
  TraceObserver,
  TransitionDefinition,
  TransitionGuardContext,
} from './definition.js'
export { IDENTIFIER_PATTERN } from './identifier.js'
export type { JsonObject, JsonPrimitive, JsonValue } from './json.js'
export { lintDefinition } from './lint.js'
export type { LintWarning } from './lint.js'
export { step } from './machine.js'
export type { Machine, MachineEffect, MachineState } from './machine.js'
export { ChatrailRouteError, isChatrailRouteError } from './route-error.js'
export { commandRoute, eventRoute, patternRoute, route, textRoute } from './routes.js'
export type {
  CommandRoute,
  CustomRoute,
  EventRoute,
  PatternAssign,
  PatternRoute,
  Route,
  RouteContext,
  RouteGuard,
  RouteKind,
  RouteMatch,
  RouteMatcher,
  RouteOptions,
  RouteOutput,
  RouteResponder,
  RouteResponse,
  RouteResult,
  RouteTraceKind,
  TextRoute,
} from './routes.js'
export { createChatSession } from './session.js'
export type { ChatSession, ChatSessionOptions } from './session.js'
export type { SessionSnapshot } from './snapshot.js'
export { TRANSITION_TOOL } from './agent-transitions.js'
export type { TurnKind, TurnOutcome, TurnTrace } from './trace.js'
export { sendUiEvent, uiEventMessageMetadata, uiEventOf } from './ui-events.js'
export type { UiEventMetadata, UiEventSender } from './ui-events.js'
