import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { isInvalidData } from '../../../domain/failures.js';
import type { Context } from 'hono';
import type { NewOrder } from '../../../db/queries/orders.js';
import { findIdempotencyKey, recordOrderCreation } from '../../../db/queries/orders.js';
import { findOrderRefs, type OrderRefs } from '../../../db/queries/order-refs.js';
import { orderPayloadBuilder, orderView, type ClientFacingOrder } from '../../../db/queries/order-view.js';
import { checkAoeAnswers, type AoeAnswer, type AoeMarker } from '../../../domain/orders/aoe.js';
import { requestHash, transactionIdOf, uuidFrom } from '../../../domain/orders/ids.js';
import { stepsAfterCreation } from '../../../domain/orders/lifecycles.js';
import { COLLECTION_METHODS, ORDER_EVENT_TYPES, type CollectionMethod } from '../../../domain/orders/status.js';
import { classifyActivityError } from '../../../lib/activity-errors.js';
import {
  createdUpdate,
  labOrderWorkflowId,
  labOrderWorkflowType,
  taskQueue,
  type LabOrderInput,
} from '../../../workflows/lab-order/definitions.js';
import type { AppEnv } from '../../env.js';
import { HttpError, ValidationError, badRequest, notFound } from '../../errors.js';
import type { OrdersDeps } from './deps.js';
import { searchAttributePairs } from '../../../workflows/shared/search-attributes.js';

export const CREATED_MESSAGE = 'Order created successfully';

/**
 * Checks what an order refers to: a live user of the team, an active lab test it may order and,
 * when given, one of the team's own active lab accounts at that test's lab (or a platform account).
 * Everything is read in one statement (db/queries/order-refs.ts); the checks run in the order they always
 * did, so the first refusal is the same. The lab test's markers (for `aoe_answers`) and the accounts that
 * lab-account resolution chooses from come back with it (`refs`), for the caller's later checks.
 */
export async function checkOrderRefs(
  deps: OrdersDeps,
  teamId: string,
  userId: string,
  labTestId: string,
  labAccountId?: string | null,
  /** Imported orders may name a lab account still being set up (`PENDING`). */
  options: { allowPendingAccount?: boolean } = {},
) {
  return checkedOrderRefs(await readOrderRefs(deps, teamId, userId, labTestId, labAccountId), labTestId, labAccountId, options);
}

/** The read of `checkOrderRefs`, with the request's idempotency key when it has one (POST /v3/order). */
export function readOrderRefs(deps: OrdersDeps, teamId: string, userId: string, labTestId: string, labAccountId?: string | null, idempotencyKey?: string) {
  // every lab's platform account only when an account is named (findLabAccount looked among them all)
  return findOrderRefs(deps.db, teamId, userId, labTestId, { allLabs: Boolean(labAccountId), idempotencyKey: idempotencyKey ?? null });
}

/** The checks of `checkOrderRefs` on what `readOrderRefs` read. */
export function checkedOrderRefs(refs: OrderRefs, labTestId: string, labAccountId?: string | null, options: { allowPendingAccount?: boolean } = {}) {
  const { user, test } = refs;
  if (!user || user.deletedAt) throw notFound('User does not exist on this team');
  if (!test) throw notFound('Lab test not found');
  if (test.status !== 'active') throw badRequest(`Lab test ${labTestId} is not active`);
  const method = COLLECTION_METHODS.find((m) => m === test.method);
  if (!method) throw badRequest(`Lab test ${labTestId} has an unknown collection method ${test.method}`);
  if (labAccountId) {
    // as findLabAccount: the team's own account with this id, else the platform account with this id
    const account = refs.teamAccounts.find((a) => a.id === labAccountId) ?? refs.allPlatform.find((a) => a.id === labAccountId) ?? null;
    if (!account) throw notFound('Lab account not found');
    const usable = account.status === 'active' || (options.allowPendingAccount && account.status.toLowerCase() === 'pending');
    if (!usable) throw badRequest(`Lab account ${labAccountId} is not active`);
    if (account.labId !== test.labId) throw badRequest(`Lab account ${labAccountId} is not at the lab of lab test ${labTestId}`);
  }
  return { user, test, method, refs, accounts: { team: refs.teamAccounts, platform: refs.platform } };
}

/**
 * The `aoe_answers` of a new order, checked against its lab test's markers (those `checkOrderRefs` read,
 * domain/orders/aoe.ts): 422 naming every problem, the
 * answers in marker and question order, or null when the order carries none.
 */
export function aoeAnswersFor(markers: AoeMarker[], answers: AoeAnswer[]): AoeAnswer[] | null {
  const checked = checkAoeAnswers(markers, answers);
  if (checked.issues.length > 0) throw new ValidationError(checked.issues);
  return checked.answers.length > 0 ? checked.answers : null;
}

/**
 * Starts the order's workflow, then records the order in the API's own transaction: the request waits on
 * two round trips (Temporal's start, one Postgres transaction), never on a workflow task.
 *
 * "No order without its workflow" holds in every order of failure:
 * - the start fails: nothing was written, the request fails;
 * - the start succeeds and the write is lost (the process dies, Postgres is away): the workflow's first
 *   step writes the same record (same ids: `input.recorded`) itself;
 * - both write: the second finds the row and changes nothing (insert-or-nothing on the order id).
 * A write the database refuses (InvalidData) is refused by the workflow's own step too, which then ends
 * the workflow: the caller gets 422 and no order exists.
 *
 * With an idempotency key the order id (hence the workflow id) derives from the key, so a client's retry
 * joins the first attempt.
 */
export async function startOrder(
  c: Context<AppEnv>,
  deps: OrdersDeps,
  record: Omit<NewOrder, 'id' | 'workflowId' | 'detailsId' | 'teamId'> & { method: CollectionMethod },
  options: { registrable: boolean; idempotency: { key: string; requestHash: string } | null; imported?: boolean },
) {
  const teamId = c.get('teamId');
  const orderId = options.idempotency ? uuidFrom(`order:${teamId}:${options.idempotency.key}`) : randomUUID();
  const workflowId = labOrderWorkflowId(orderId);
  const lifecycle = {
    registrable: options.registrable,
    imported: options.imported ?? false,
    // Redraws need the lab's opt-in, which production labs do not report here yet; sandbox walk-in orders have it.
    redraw: record.method === 'walk_in_test' && deps.environment === 'sandbox',
  };
  const steps = stepsAfterCreation(record.method, lifecycle);
  const recorded = { outboxEventId: randomUUID(), then: steps.map(() => randomUUID()) };
  const input: LabOrderInput = {
    orderId,
    teamId,
    method: record.method,
    ...lifecycle,
    activateBy: record.activateBy ?? null,
    record: { ...record, id: orderId, teamId, workflowId, detailsId: randomUUID(), origin: 'initial', transactionId: transactionIdOf(orderId) },
    idempotency: options.idempotency,
    recorded,
    searchAttributesAtStart: true,
    ...(deps.deadlines ? { deadlines: deps.deadlines } : {}),
  };
  let running = true;
  try {
    await deps.temporal.workflow.start(labOrderWorkflowType, {
      workflowId,
      taskQueue,
      args: [input],
      // A running workflow for this order (a retry under the same key) is joined; a finished one is
      // never started again: one workflow per order, for ever.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      // findable from its start (its first task need not upsert them): the status its creation leaves it in
      typedSearchAttributes: searchAttributePairs({ team: teamId, method: record.method, user: record.userId, status: steps.at(-1) ?? 'ordered' }) as SearchAttributePair[],
    });
  } catch (err) {
    // Only possible under an idempotency key whose order has already finished its life: answer that order.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError) || !options.idempotency) throw err;
    running = false;
  }
  // The order as its last creating step left it (built in the transaction for its webhook event): the answer
  // when this request's write is the one that created the order.
  let built: Record<string, unknown> | undefined;
  if (running) {
    try {
      const written = await recordOrderCreation(
        deps.db,
        input.record,
        input.idempotency,
        { id: recorded.outboxEventId, eventType: ORDER_EVENT_TYPES.created },
        orderPayloadBuilder(await deps.urlSigner()), // loaded first: inside the transaction nothing may wait on the pool
        steps.map((low, i) => ({ low, outbox: { id: recorded.then[i]!, eventType: ORDER_EVENT_TYPES.updated } })),
      );
      built = written.order;
    } catch (err) {
      await afterLostWrite(deps, workflowId, err);
    }
  }
  if (built) return { order: built as ClientFacingOrder, status: 'success', message: CREATED_MESSAGE };
  if (options.idempotency) {
    const stored = await findIdempotencyKey(deps.db, teamId, options.idempotency.key);
    if (stored && stored.requestHash !== options.idempotency.requestHash) throw idempotencyConflict();
  }
  const order = await orderView(deps.db, teamId, orderId, deps.loadLabTests, deps.urlSigner);
  if (!order) throw new HttpError(422, 'The order could not be recorded: its first attempt under this idempotency key was refused.');
  return { order, status: 'success', message: CREATED_MESSAGE };
}

/**
 * The API's write of a new order failed. Data the database refuses: 422 naming what (never the value), and
 * the workflow, whose own step would be refused the same way, is stopped now. Anything else (Postgres briefly
 * away): the workflow records the order itself as soon as it can, and the request waits for that as the
 * creation did before the API wrote orders itself.
 */
async function afterLostWrite(deps: OrdersDeps, workflowId: string, err: unknown): Promise<void> {
  const why = classifyActivityError(err);
  if (why.kind === 'invalid_data') {
    await deps.temporal.workflow
      .getHandle(workflowId)
      .terminate(`the order could not be recorded: ${why.message}`)
      .catch(() => undefined); // it may have ended on its own already
    throw new HttpError(422, `The order could not be recorded: ${why.message}`);
  }
  try {
    await deps.temporal.workflow.getHandle(workflowId).executeUpdate(createdUpdate);
  } catch (updateErr) {
    if (updateErr instanceof WorkflowUpdateFailedError) throw creationFailed(updateErr);
    throw updateErr;
  }
}

/** 422 when the workflow refused the order's data (InvalidData), else 500 naming the failure (no stack, no value). */
export const creationFailed = (err: WorkflowUpdateFailedError) =>
  isInvalidData(err.cause)
    ? new HttpError(422, `The order could not be recorded: ${err.cause!.message}`)
    : new HttpError(500, 'The order could not be created: its workflow failed before recording it.');

export const idempotencyConflict = () => new HttpError(409, 'Idempotency key was reused with a different request');

/** The `X-Idempotency-Key` of a request: absent, or 1–255 visible characters. */
export function idempotencyKeyOf(c: Context<AppEnv>, body: unknown): { key: string; requestHash: string } | null {
  const key = c.req.header('x-idempotency-key');
  if (key === undefined) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new HttpError(422, [{ loc: ['header', 'x-idempotency-key'], msg: 'must be 1–255 visible ASCII characters', type: 'value_error' }]);
  }
  return { key, requestHash: requestHash(body) };
}

