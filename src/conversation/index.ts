// The conversation core's public surface; `src/index.ts` re-exports these names.
export { ChatrailConfigError, isChatrailConfigError } from './config-error.js'
export type { ConfigIssue } from './config-error.js'
export { formatConfigIssues, toDotPath } from './config-issues-format.js'
export { readDecisionRecord } from './decision-record.js'
export type { DecisionRecord } from './decision-record.js'
export type { RecordKey } from './record-signing.js'
export { defineChat } from './define-chat.js'
export type { DefineChatWithContext } from './define-chat.js'
export type {
  ChatConfigInput,
  ChatDefinition,
  ChatDefinitionInput,
  ChatNames,
  CheckedName,
  ConversationDefinition,
  EventName,
  NamesOf,
  StateName,
  TransitionMap,
  UiEventName,
  FallbackContext,
  FallbackDefinition,
  FallbackOutput,
  FallbackResponse,
  FormDefinition,
  FormSlot,
  FormText,
  SlotValidator,
  StateDefinition,
  TraceObserver,
  TransitionDefinition,
  TransitionGuardContext,
} from './definition.js'
export { IDENTIFIER_PATTERN } from './identifier.js'
export type { JsonObject, JsonPrimitive, JsonValue } from './json.js'
export type { ExplainedKind, ExplainedTurn, Explanation, ExplainInput, ExplainReason, RouteExplanation } from './explain.js'
export type { LintWarning } from './lint.js'
export { step } from './machine.js'
export type { Machine, MachineEffect, MachineState } from './machine.js'
export { ChatrailRouteError, isChatrailRouteError } from './route-error.js'
export { commandRoute, eventRoute, patternRoute, route, textRoute } from './routes.js'
export type {
  CommandRoute,
  CommandRouteOptions,
  CustomRoute,
  CustomRouteOptions,
  EventRoute,
  EventRouteOptions,
  PatternAssign,
  PatternRoute,
  PatternRouteOptions,
  Route,
  RouteContext,
  RouteGuard,
  RouteKind,
  RouteMatch,
  RouteMatcher,
  RouteOptions,
  RouteContent,
  RouteOutput,
  RouteResponder,
  RouteResponse,
  RouteResult,
  RouteTraceKind,
  TextRoute,
  TextRouteOptions,
} from './routes.js'
export { createChatSession } from './session.js'
export type { ChatSession, ChatSessionOptions } from './session.js'
export type { SessionSnapshot } from './snapshot.js'
export { TRANSITION_TOOL } from './transition-tool.js'
export type { TurnKind, TurnOutcome, TurnTimings, TurnTrace } from './trace.js'
export { sendUiEvent, uiEventMessageMetadata, uiEventOf } from './ui-events.js'
export { interactionUiEvent, sendInteraction } from './interactions.js'
export type { Interaction, InteractionInput, InteractionMetadata } from './interactions.js'
export type { InteractionRefusal } from './interaction-judge.js'
export type { UiEventMetadata, UiEventSender } from './ui-events.js'
