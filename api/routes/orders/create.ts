import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { isInvalidData } from '../../../domain/failures.js';
import type { Context } from 'hono';
import type { NewOrder } from '../../../db/queries/orders.js';
import { findIdempotencyKey } from '../../../db/queries/orders.js';
import { findLabAccount, labOfLabTest } from '../../../db/queries/lab-accounts.js';
import { orderView } from '../../../db/queries/order-view.js';
import { findUser } from '../../../db/queries/users.js';
import { requestHash, transactionIdOf, uuidFrom } from '../../../domain/orders/ids.js';
import { COLLECTION_METHODS, type CollectionMethod } from '../../../domain/orders/status.js';
import {
  createdUpdate,
  labOrderWorkflowId,
  labOrderWorkflowType,
  taskQueue,
  type LabOrderInput,
} from '../../../workflows/lab-order/definitions.js';
import type { AppEnv } from '../../env.js';
import { HttpError, badRequest, notFound } from '../../errors.js';
import type { OrdersDeps } from './deps.js';

export const CREATED_MESSAGE = 'Order created successfully';

/**
 * Checks what an order refers to: a live user of the team, an active lab test it may order and,
 * when given, one of the team's own active lab accounts at that test's lab.
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
  const user = await findUser(deps.db, teamId, userId);
  if (!user || user.deletedAt) throw notFound('User does not exist on this team');
  const test = await deps.findLabTest(teamId, labTestId);
  if (!test) throw notFound('Lab test not found');
  if (test.status !== 'active') throw badRequest(`Lab test ${labTestId} is not active`);
  const method = COLLECTION_METHODS.find((m) => m === test.method);
  if (!method) throw badRequest(`Lab test ${labTestId} has an unknown collection method ${test.method}`);
  if (labAccountId) {
    const account = await findLabAccount(deps.db, teamId, labAccountId);
    if (!account) throw notFound('Lab account not found');
    const usable = account.status === 'active' || (options.allowPendingAccount && account.status.toLowerCase() === 'pending');
    if (!usable) throw badRequest(`Lab account ${labAccountId} is not active`);
    if (account.labId !== (await labOfLabTest(deps.db, labTestId))) throw badRequest(`Lab account ${labAccountId} is not at the lab of lab test ${labTestId}`);
  }
  return { user, test, method };
}

/**
 * Starts the order's workflow and waits until it has written the order row (update-with-start): the
 * order and its workflow come into being together, or not at all. With an idempotency key the order id
 * (hence the workflow id) derives from the key, so a client's retry joins the first attempt.
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
  const input: LabOrderInput = {
    orderId,
    teamId,
    method: record.method,
    registrable: options.registrable,
    imported: options.imported ?? false,
    // Redraws need the lab's opt-in, which production labs do not report here yet; sandbox walk-in orders have it.
    redraw: record.method === 'walk_in_test' && deps.environment === 'sandbox',
    activateBy: record.activateBy ?? null,
    record: { ...record, id: orderId, teamId, workflowId, detailsId: randomUUID(), origin: 'initial', transactionId: transactionIdOf(orderId) },
    idempotency: options.idempotency,
    ...(deps.deadlines ? { deadlines: deps.deadlines } : {}),
  };
  try {
    await deps.temporal.workflow.executeUpdateWithStart(createdUpdate, {
      startWorkflowOperation: new WithStartWorkflowOperation(labOrderWorkflowType, {
        workflowId,
        taskQueue,
        args: [input],
        // A running workflow for this order (a retry under the same key) is joined; a finished one is
        // never started again: one workflow per order, for ever.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    });
  } catch (err) {
    // The creating step failed for good (data the database refuses): a clear error, never a hang or a 500.
    if (err instanceof WorkflowUpdateFailedError) throw creationFailed(err);
    // Only possible under an idempotency key whose order has already finished its life: answer that order.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError) || !options.idempotency) throw err;
  }
  if (options.idempotency) {
    const stored = await findIdempotencyKey(deps.db, teamId, options.idempotency.key);
    if (stored && stored.requestHash !== options.idempotency.requestHash) throw idempotencyConflict();
  }
  const order = await orderView(deps.db, teamId, orderId, deps.loadLabTests, deps.urlSigner);
  if (!order) throw new Error(`order ${orderId} was not recorded by its workflow`);
  return { order, status: 'success', message: CREATED_MESSAGE };
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

