// chatrail/components: typed component parts, the closed registry and the standard catalog.
// zod/mini is loaded by this entry only (for the catalog's schemas); `chatrail` never loads it for components.
export {
  AGENTSKIT_COMPONENT_PROTOCOL,
  AGENTSKIT_CONTENT_LIMITS,
  AGENTSKIT_CONTENT_PREFIX,
  decodeAgentskitContent,
  encodeAgentskitContent,
  fromAgentskitFrame,
  isAgentskitContent,
  toAgentskitFrame,
} from './agentskit-codec.js'
export type { AgentskitComponentFrame, AgentskitDecodeCode, AgentskitDiagnostic } from './agentskit-codec.js'
export { checkBoundedJson, PROPS_LIMITS } from './bounded-json.js'
export { defineComponent } from './component-definition.js'
export type {
  AnyComponentDefinition,
  ComponentAccessibility,
  ComponentCapability,
  ComponentDefinition,
  ComponentEventValue,
  EventPayload,
  EventsOf,
  FormValues,
  PropsOf,
} from './component-definition.js'
export type { Checked, ComponentDiagnostic, ComponentDiagnosticCode } from './component-diagnostics.js'
export { ComponentError, defineComponents } from './define-components.js'
export { componentTool, REFUSED_COMPONENT_TEXT } from './component-tool.js'
export type { ComponentToolOptions, ComponentToolRegistry } from './component-tool.js'
export { COMPONENT_TOOL, componentToolOf } from '../contract/component-tool.js'
export type { ComponentToolDefinition } from '../contract/component-tool.js'
export type { ComponentInteraction, ComponentRegistry, RenderOptions } from './define-components.js'
export { isSafeUrl } from './safe-url.js'
export { selectChoice } from './select-choice.js'
export { fallbackProblem, formatSemanticFallback, parseSemanticFallback } from './semantic-fallback.js'
export type { FallbackFormat } from './semantic-fallback.js'
export type { InferOutput, StandardResult, StandardSchemaV1 } from './standard-schema.js'
export {
  STANDARD_COMPONENT_KEYS,
  approvalRequest,
  buttonGroup,
  choiceList,
  confirmation,
  errorNotice,
  fileAttachment,
  form,
  linkCard,
  progress,
  sourceList,
  standardCatalog,
  table,
  toolCall,
} from './standard-catalog.js'
export {
  approvalRequestProps,
  buttonGroupProps,
  choiceListProps,
  confirmationProps,
  errorNoticeProps,
  fileAttachmentProps,
  formProps,
  linkCardProps,
  progressProps,
  sourceListProps,
  tableProps,
  toolCallProps,
} from './catalog-schemas.js'
export { componentChunk, componentOfChunk, isComponentPart } from '../contract/component-chunk.js'
export { interactionUiEvent, sendInteraction } from '../conversation/interactions.js'
export type { Interaction, InteractionInput, InteractionMetadata } from '../conversation/interactions.js'
export { answeredInteractions, interactionOf } from '../conversation/interaction-judge.js'
export type { InteractionRefusal } from '../conversation/interaction-judge.js'
export type { ComponentCatalog, ComponentFallback, ComponentPart, ComponentProvenance } from '../contract/component-part.js'
