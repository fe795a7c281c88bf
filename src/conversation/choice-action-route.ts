import type { ConfirmableAction } from '../contract/action-confirmation.js'
import { isComponentPart } from '../contract/component-chunk.js'
import type { ComponentPart } from '../contract/component-part.js'
import { ChatrailError } from '../contract/errors.js'
import type { JsonObject } from './json.js'
import type { ActionConfirmationCoordinator } from './action-confirmation.js'
import { configIssue, throwIfIssues, type ConfigIssue } from './config-error.js'
import { isIdentifier } from './identifier.js'
import { interactionOf } from './interaction-judge.js'
import { route, type CustomRoute, type RouteContext } from './routes.js'

/**
 * The built-in path from a choice's typed `action` (a `choice-list` choice carrying
 * `action: { name, input }`, AgentsKit's `ChoiceAction`) to a confirmation record. The click is an
 * interaction like any other, so the session has already refused a second click, a click from
 * another tab and one on a component no earlier answer showed (interaction-judge.ts) before this
 * route runs: it proposes the action once per stood interaction. What the route reads is the
 * choice **in the stored answer**, never what the client says it showed, and the action must be
 * one the route declares (`actions`), from a choice list a route or the app made (an agent's needs
 * `agentChoices`); the coordinator's policy is checked at propose. The answer
 * is an `approval-request` bound to the record by its token: its Approve and Reject go to the
 * coordinator (or the server's approve/reject endpoints), whose compare-and-swap decides.
 */

/** The approval-request props the route renders (the standard catalog's `approvalRequestProps`). */
export interface ApprovalRequestInput {
  token: string
  title: string
  action: { name: string; input: Record<string, unknown> }
  expiresAt?: string
}

/** A registry that has the standard `approval-request` (any `defineComponents([...standardCatalog, …])`). */
export interface ApprovalRequestRenderer {
  render: (key: 'approval-request', props: ApprovalRequestInput, options?: { readonly instanceId?: string }) => ComponentPart
}

/** The choice a `select` interaction in the current message picked, with its action, read from the stored answer. */
export interface ChosenAction {
  /** The answer holding the choice list. */
  readonly messageId: string
  readonly instanceId: string
  readonly choiceId: string
  readonly label: string
  readonly action: ConfirmableAction
  /** Who made the choice list: a choice list an agent proposed (`agent`) is refused unless the route allows it. */
  readonly provenance: ComponentPart['provenance']
}

export interface ChoiceActionRouteOptions<Ctx extends JsonObject = JsonObject, E extends string = string, S extends string = string> {
  /** Default `choice-action`. */
  readonly id?: string
  /** The actions a choice may propose (e.g. your confirmable tools' names); a choice naming another is refused. */
  readonly actions: readonly string[]
  /**
   * The running session's coordinator: `session.createConfirmation(…)`, or `createStoredConfirmation(…)`
   * on a server. Default: the session's own (`ctx.confirmations`: a session made with
   * `confirmations`, or chatrail/server's sessions when the handler serves confirmations).
   */
  readonly confirmations?: (ctx: RouteContext<Ctx>) => ActionConfirmationCoordinator
  /** The definition's registry (it draws the approval request). */
  readonly components: ApprovalRequestRenderer
  /** The text before the approval request. Default: `Please confirm: <choice label>.` */
  readonly text?: (chosen: ChosenAction) => string
  /**
   * Whether a choice list an agent proposed (through `componentTool`, provenance `agent`) may
   * propose its actions. Default false: a model's words could otherwise choose the action and its
   * input (the person still approves, but reads what the model wrote); such a click fails the route
   * (`ACTION_FROM_AGENT`).
   */
  readonly agentChoices?: boolean
  /** Fire this machine event once the proposal stands (default: none, a reply-only route). */
  readonly event?: E
  readonly states?: readonly S[]
}

interface ChoiceWithAction {
  readonly id?: unknown
  readonly label?: unknown
  readonly action?: { readonly name?: unknown; readonly input?: unknown }
}

/** The chosen action the current user message's interaction names, if it picked a choice carrying one. */
export function chosenAction(ctx: Pick<RouteContext, 'history' | 'messageId'>): ChosenAction | undefined {
  const message = ctx.messageId === undefined ? undefined : ctx.history.find((candidate) => candidate.id === ctx.messageId)
  const interaction = message && interactionOf(message)
  if (!interaction || interaction.componentKey !== 'choice-list' || interaction.event !== 'select' || typeof interaction.value !== 'string') return undefined
  const answer = ctx.history.find((candidate) => candidate.id === interaction.messageId && candidate.role === 'assistant')
  const part = answer?.parts?.find((candidate): candidate is ComponentPart => isComponentPart(candidate) && candidate.instanceId === interaction.instanceId)
  if (part?.componentKey !== 'choice-list') return undefined
  const choices = (part.props as { choices?: unknown } | null)?.choices
  if (!Array.isArray(choices)) return undefined
  const choice = (choices as ChoiceWithAction[]).find((candidate) => candidate.id === interaction.value)
  const action = choice?.action
  if (typeof action?.name !== 'string' || typeof action.input !== 'object' || action.input === null || Array.isArray(action.input)) return undefined
  return {
    messageId: interaction.messageId,
    instanceId: interaction.instanceId,
    choiceId: interaction.value,
    label: typeof choice?.label === 'string' ? choice.label : interaction.value,
    action: { name: action.name, input: action.input as Readonly<Record<string, unknown>> },
    provenance: part.provenance,
  }
}

/**
 * A route answering a choice that carries an `action`: proposes it to the session's coordinator
 * and answers with an `approval-request` bound to the record (see above). Put it before the
 * routes that answer the choices' ids. An action the route does not declare, or one the policy
 * refuses, fails the route (`ChatrailError` `ACTION_UNDECLARED` / `ACTION_REFUSED`): a failed
 * route changes nothing, and nothing was proposed.
 */
export function choiceActionRoute<Ctx extends JsonObject = JsonObject, const E extends string = never, const S extends string = never>(options: ChoiceActionRouteOptions<Ctx, E, S>): CustomRoute<Ctx, E, S> {
  checkOptions(options)
  const declared = new Set(options.actions)
  const text = options.text ?? ((chosen: ChosenAction) => `Please confirm: ${chosen.label}.`)
  // the names are checked against the definition by the return type (E, S), as route()'s own are
  return route<Ctx>({
    id: options.id ?? 'choice-action',
    ...(options.event === undefined ? {} : { event: options.event }),
    ...(options.states === undefined ? {} : { states: options.states }),
    description: 'A choice carrying an action: proposes it for confirmation.',
    match: (_input, ctx) => chosenAction(ctx) !== undefined,
    response: async (_input, ctx) => {
      const chosen = chosenAction(ctx)
      if (!chosen) throw new ChatrailError({ code: 'ACTION_INVALID', message: 'The choice carries no action.', hint: 'choiceActionRoute answers choices with an action only.' })
      if (chosen.provenance === 'agent' && options.agentChoices !== true) {
        throw new ChatrailError({
          code: 'ACTION_FROM_AGENT',
          message: `The choice "${chosen.choiceId}" is in a choice list an agent proposed; its action "${chosen.action.name}" is not proposed.`,
          hint: 'Pass choiceActionRoute({ agentChoices: true }) to let agent-proposed choices propose their actions (the policy and the approval still apply).',
        })
      }
      if (!declared.has(chosen.action.name)) {
        throw new ChatrailError({
          code: 'ACTION_UNDECLARED',
          message: `The choice "${chosen.choiceId}" proposes the action "${chosen.action.name}", which this route does not declare.`,
          hint: `Add "${chosen.action.name}" to choiceActionRoute({ actions }) if a choice may propose it.`,
        })
      }
      // one proposal per stood interaction: the user message id names the tool call it confirms
      const toolCallId = `choice-${ctx.messageId ?? ctx.turnId}`.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 128)
      const coordinator = options.confirmations ? options.confirmations(ctx) : ctx.confirmations
      if (!coordinator) {
        throw new ChatrailError({
          code: 'CONFIRMATIONS_MISSING',
          message: `The choice "${chosen.choiceId}" proposes "${chosen.action.name}", but this session has no confirmation coordinator.`,
          hint: 'Make the session with createChatSession(definition, { confirmations: { tools } }), serve confirmations (createChatHandler({ confirmations })), or pass choiceActionRoute({ confirmations }).',
        })
      }
      const record = await coordinator.propose(chosen.action, { toolCallId })
      const approval = options.components.render('approval-request', {
        token: record.token,
        title: chosen.label,
        action: { name: record.action.name, input: { ...record.action.input } },
        expiresAt: new Date(record.expiresAt).toISOString(),
      }, { instanceId: `approval-${chosen.instanceId}`.slice(0, 128) })
      return [text(chosen), approval]
    },
  }) as CustomRoute<Ctx, E, S>
}

/** Options that cannot work, all at once, as a `ChatrailConfigError` (when the definition is written, not at the first click). */
function checkOptions(options: ChoiceActionRouteOptions<never, string, string>): void {
  const issues: ConfigIssue[] = []
  const at = (field: string): (string | number)[] => ['choiceActionRoute', options.id ?? 'choice-action', field]
  if (!Array.isArray(options.actions) || options.actions.length === 0 || options.actions.some((name) => typeof name !== 'string' || !isIdentifier(name))) {
    issues.push(configIssue('invalid_choice_action_route', at('actions'), 'actions must list the action names a choice may propose (identifiers).', 'e.g. actions: ["refund"], your confirmable tools\' names.'))
  }
  if (options.confirmations !== undefined && typeof options.confirmations !== 'function') {
    issues.push(configIssue('invalid_choice_action_route', at('confirmations'), 'confirmations must be a function returning the running session\'s coordinator.', 'e.g. confirmations: (ctx) => confirmationsFor(ctx.sessionId), or leave it out to use the session\'s own (ctx.confirmations).'))
  }
  if (typeof options.components?.render !== 'function') {
    issues.push(configIssue('invalid_choice_action_route', at('components'), 'components must be the definition\'s registry (it draws the approval request).', 'Pass defineComponents([...standardCatalog]).'))
  }
  throwIfIssues(issues)
}
