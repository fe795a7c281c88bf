import * as z from 'zod/mini'
import type { ActionConfirmation } from '../contract/action-confirmation.js'
import { ChatrailError } from '../contract/errors.js'
import { inEnglish } from '../contract/english-issues.js'
import type { ToolDefinition } from '../contract/tool.js'
import type { ActionConfirmationCoordinator } from '../conversation/action-confirmation.js'
import { createActionConfirmation } from '../conversation/actions.js'
import type { ActionPolicy } from '../conversation/capability-policy.js'
import type { SessionConfirmationOptions } from '../conversation/session-actions.js'
import { isIdentifier } from '../conversation/identifier.js'
import { toolsExecutor, type ActionExecutor } from '../conversation/action-executor.js'
import { actionKit } from '../conversation/action-kit.js'
import type { ConversationStore } from '../store/conversation-store.js'
import { confirmationLedgerOf } from '../store/confirmation-ledger-of.js'
import { badRequest, HttpError, jsonResponse } from './http-responses.js'
import type { ServerTools } from './server-tools.js'
import { approvedTools, toolCallExecutor } from './tool-confirmations.js'

/**
 * The confirmation endpoints: POST bodies told apart by their `action`, like stop and dialog answers.
 * - `{ id, action: 'approve-action', token }` approves and executes the action once;
 * - `{ id, action: 'reject-action', token, reason? }` rejects it;
 *   either, when the record is a paused tool call's, resumes its answer once its calls are all
 *   decided (`continuing: true` in the answer: approval-continuation.ts);
 * - `{ id, action: 'list-actions' }` lists the conversation's records (for an approval card).
 * Each request builds the conversation's coordinator over the store, so whichever instance gets the
 * request, the store's compare-and-swap decides: of two approvals of one token, one executes.
 * Another principal's conversation or token is 404, exactly like a token that does not exist.
 */

export interface ConfirmationEndpointOptions {
  /**
   * The app's actions a client may approve: tools with `requiresConfirmation: true` and `execute`,
   * run on the server. The definition's own tools that require confirmation need not be listed: the
   * calls a model makes to them are records too (tool-confirmations.ts). Default none.
   */
  readonly tools?: readonly ToolDefinition[]
  /** How long a proposal waits (`createStoredConfirmation(...).propose`). Default 5 minutes. */
  readonly ttlMs?: number
  /** How long an approval's claim lasts before another instance may reconcile it. Default 30 s. */
  readonly claimMs?: number
  /** The conversation's capability policy, checked at propose and right before execute. */
  readonly policy?: (conversationId: string, principal: string | undefined) => ActionPolicy | undefined
}

export interface StoredConfirmationOptions extends ConfirmationEndpointOptions {
  readonly store: ConversationStore
  readonly conversationId: string
  readonly principal?: string
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly clock?: () => number
}

/** What a client sees of a record (no claim, no idempotency key). */
export interface ConfirmationView {
  readonly token: string
  readonly status: ActionConfirmation['status']
  readonly action: ActionConfirmation['action']
  readonly toolCallId: string
  readonly expiresAt: number
  readonly decidedAt?: number
  readonly decidedBy?: string
  readonly reason?: string
  readonly outcome?: ActionConfirmation['outcome']
}

export const confirmationView = (record: ActionConfirmation): ConfirmationView => ({
  token: record.token,
  status: record.status,
  action: record.action,
  toolCallId: record.toolCallId,
  expiresAt: record.expiresAt,
  ...(record.decidedAt === undefined ? {} : { decidedAt: record.decidedAt }),
  ...(record.decidedBy === undefined ? {} : { decidedBy: record.decidedBy }),
  ...(record.reason === undefined ? {} : { reason: record.reason }),
  ...(record.outcome === undefined ? {} : { outcome: record.outcome }),
})

/**
 * The coordinator the endpoints use, for the app to propose with (from a route, a tool, a job):
 * bound to one conversation and principal, its records in the store.
 */
export function createStoredConfirmation(options: StoredConfirmationOptions): ActionConfirmationCoordinator {
  return storedCoordinator(options, { tools: options.tools ?? [] })
}

function storedCoordinator(options: StoredConfirmationOptions, run: { readonly tools: readonly ToolDefinition[] } | { readonly executor: ActionExecutor }): ActionConfirmationCoordinator {
  const ledger = confirmationLedgerOf(options.store)
  const policy = options.policy?.(options.conversationId, options.principal)
  return createActionConfirmation({
    sessionId: options.conversationId,
    ...(options.principal === undefined ? {} : { principal: options.principal }),
    ...run,
    ledger,
    ...(policy === undefined ? {} : { policy }),
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
    ...(options.claimMs === undefined ? {} : { claimMs: options.claimMs }),
    ...(options.clock === undefined ? {} : { now: options.clock }),
  })
}

/**
 * What a turn's session is given as its `confirmations` (routes' `ctx.confirmations`): the same
 * coordinator the endpoints build (the store's records, the principal, the policy, the executor),
 * so a route's proposal is decided by the endpoints and the approval cards like any other.
 */
export function sessionConfirmations(context: Pick<ConfirmationRequestContext, 'store' | 'options' | 'clock' | 'tools'>, conversationId: string, owner: string | undefined): SessionConfirmationOptions | undefined {
  const { store, options } = context
  if (!options || !store.saveConfirmation || !store.loadConfirmation || !store.listConfirmations) return undefined
  const policy = options.policy?.(conversationId, owner)
  return {
    ...endpointExecutor(options.tools ?? [], context.tools),
    ledger: confirmationLedgerOf(store),
    ...(owner === undefined ? {} : { principal: owner }),
    ...(policy === undefined ? {} : { policy }),
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
    ...(options.claimMs === undefined ? {} : { claimMs: options.claimMs }),
    now: context.clock,
  }
}

const ACTIONS = ['approve-action', 'reject-action', 'list-actions'] as const
type ConfirmationAction = (typeof ACTIONS)[number]

/** Whether a POSTed JSON body is a confirmation request. */
export const isConfirmationBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && ACTIONS.includes((body as { action?: unknown }).action as ConfirmationAction)

const schema = z.object({ id: z.string(), action: z.enum(ACTIONS), token: z.optional(z.string()), reason: z.optional(z.string()) })

const notFound = (): HttpError => new HttpError(404, 'not_found', 'There is no confirmation with this token in this conversation.')

export interface ConfirmationRequestContext {
  readonly store: ConversationStore
  readonly options: ConfirmationEndpointOptions | undefined
  readonly clock: () => number
  /** The handler's owner check: 404 for another principal's conversation. */
  readonly checkOwner: (conversationId: string) => Promise<unknown>
  /** The definition's tools: an approved model call to one that requires confirmation runs as the turn's loop would run it. */
  readonly tools?: ServerTools | undefined
  /**
   * After a decision: resumes the conversation's answer paused on the calls the records stand for,
   * once every one is decided (approval-continuation.ts). True when that answer is being continued.
   */
  readonly afterDecision?: (conversationId: string) => Promise<boolean>
}

/**
 * What runs an approved record: a model's call to a definition tool that requires confirmation
 * runs as the turn's loop runs it (tool-confirmations.ts); any other action is the app's (`tools`).
 */
function endpointExecutor(appTools: readonly ToolDefinition[], tools: ServerTools | undefined): { readonly tools: readonly ToolDefinition[] } | { readonly executor: ActionExecutor } {
  const served = approvedTools(tools)
  if (!tools || served.size === 0) return { tools: appTools }
  const forModel = toolCallExecutor(tools)
  const app = toolsExecutor(appTools, actionKit)
  return {
    executor: {
      execute: (record, execution) => (served.has(record.action.name) ? forModel.execute(record, execution) : app.execute(record, execution)),
    },
  }
}

export async function answerConfirmation(context: ConfirmationRequestContext, body: unknown, owner: string | undefined): Promise<Response> {
  const parsed = schema.safeParse(body, inEnglish)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue?.path.map(String).join('.') || '(root)'
    throw badRequest(path, `${issue?.message ?? 'Invalid request'} at ${path}. Send { id, action: 'approve-action', token }, { id, action: 'reject-action', token, reason? } or { id, action: 'list-actions' }.`)
  }
  const request = parsed.data
  if (!isIdentifier(request.id)) throw badRequest('id', 'The conversation id must be letters, digits and . _ : - (starting with a letter or digit, at most 128 characters).')
  if (!context.options) throw new HttpError(501, 'confirmations_not_configured', 'This chat handler confirms no actions: pass createChatHandler({ confirmations: { tools } }).')
  const { store } = context
  if (!store.saveConfirmation || !store.loadConfirmation || !store.listConfirmations) throw new HttpError(501, 'confirmations_unsupported', 'The conversation store keeps no confirmation records.')
  await context.checkOwner(request.id)
  const coordinator = storedCoordinator({ ...context.options, store, conversationId: request.id, ...(owner === undefined ? {} : { principal: owner }), clock: context.clock }, endpointExecutor(context.options.tools ?? [], context.tools))
  try {
    if (request.action === 'list-actions') return jsonResponse(200, { confirmations: (await coordinator.list()).filter((r) => r.principal === owner).map(confirmationView) })
    const token = request.token
    if (token === undefined || token === '' || token.length > 256) throw badRequest('token', 'Name the confirmation: { token } as the proposal returned it.')
    if (request.reason !== undefined && request.reason.length > 512) throw badRequest('reason', 'A reason is at most 512 characters.')
    const caller = { sessionId: request.id, ...(owner === undefined ? {} : { principal: owner }) }
    const record = request.action === 'approve-action' ? await coordinator.approve(token, caller) : await coordinator.reject(token, caller, request.reason)
    // `continuing`: the paused answer goes on now; a client follows it at `<api>/<id>/stream`
    const continuing = (await context.afterDecision?.(request.id)) === true
    return jsonResponse(200, { confirmation: confirmationView(record), ...(continuing ? { continuing } : {}) })
  } catch (error) {
    if (ChatrailError.isInstance(error) && error.code === 'CONFIRMATION_NOT_FOUND') throw notFound()
    // An action this server does not run (a coding agent's permission, waiting in the process that
    // drives the agent): the approval stands, the claim is given up, and that process takes the
    // record over and carries it out (permission-confirmations.ts). 202: decided, not yet done.
    const token = request.token
    if (ChatrailError.isInstance(error) && error.code === 'ACTION_UNKNOWN' && token !== undefined) {
      const record = await coordinator.get(token)
      if (record) return jsonResponse(202, { confirmation: confirmationView(record) })
    }
    throw error
  } finally {
    coordinator.dispose()
  }
}
