import { WorkflowUpdateFailedError } from '@temporalio/client';
import { Hono, type Context } from 'hono';
import { and, eq } from 'drizzle-orm';
import { findOrder, listOrders } from '../../../db/queries/orders.js';
import { orderView, orderViews } from '../../../db/queries/order-view.js';
import { findUser } from '../../../db/queries/users.js';
import { orders } from '../../../db/schema/index.js';
import { newSampleId } from '../../../domain/orders/ids.js';
import { parseEventStatus } from '../../../domain/orders/status.js';
import { isFinishedStatus } from '../../../domain/orders/lifecycles.js';
import {
  cancelUpdate,
  drawCompletedUpdate,
  labOrderWorkflowId,
  registerUpdate,
  simulateUpdate,
} from '../../../workflows/lab-order/definitions.js';
import type { AppEnv } from '../../env.js';
import { HttpError, ValidationError, badRequest, notFound } from '../../errors.js';
import { parse, parseJsonBody, parseQuery, readJson } from '../../validation.js';
import { checkOrderSurroundings } from '../lab-accounts/order-checks.js';
import { servicePhysicianFor } from '../../../domain/lab-accounts/physicians.js';
import { orderPhysician } from '../../../domain/physician.js';
import { aoeAnswersFor, checkOrderRefs, checkedOrderRefs, idempotencyConflict, readOrderRefs, idempotencyKeyOf, startOrder } from './create.js';
import type { OrdersDeps } from './deps.js';
import { orderDocumentsRoutes } from './documents.js';
import { ORDER_MISSING, THIS_ORDER_MISSING } from './responses.js';
import { orderTransactionsRoutes } from './transactions.js';
import { importOrderRoutes } from './import.js';
import { appointmentRoutes } from '../appointments/index.js';
import {
  createOrderBody,
  createTestkitOrderBody,
  listOrdersQuery,
  orderIdParam,
  registerTestkitBody,
  simulateQuery,
  simulationFlags,
} from './schemas.js';

/** Why a workflow refused an update, as the caller should read it. */
function refusal(err: unknown): string | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  return err.cause?.message ?? err.message;
}

/** /v3/order*, /v3/orders — CONTRACT §4. Every change goes through the order's workflow. */
export function ordersRoutes(deps: OrdersDeps) {
  const { db } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  async function requireOrder(teamId: string, orderId: string) {
    const order = await findOrder(db, teamId, orderId);
    if (!order) throw notFound(ORDER_MISSING);
    return order;
  }

  async function respond(teamId: string, orderId: string, message: string) {
    const order = await orderView(db, teamId, orderId, deps.loadLabTests, deps.urlSigner);
    if (!order) throw notFound(THIS_ORDER_MISSING);
    return { order, status: 'success', message };
  }

  // An unregistered kit shipped to the customer, registered later with POST /v3/order/testkit/register.
  app.post('/order/testkit', async (c) => {
    const body = await parseJsonBody(c, createTestkitOrderBody);
    const teamId = c.get('teamId');
    const { method, test, accounts } = await checkOrderRefs(deps, teamId, body.user_id, body.lab_test_id, body.lab_account_id);
    if (method !== 'testkit') throw badRequest(`Lab test ${body.lab_test_id} is collected by ${method}, not by a testkit`);
    // The same lab-account checks as POST /v3/order (README "Lab accounts"): the account given or resolved,
    // delegation (no physician can be named here, so a delegated account past its grace refuses), billing.
    const around = await checkOrderSurroundings(db, {
      teamId,
      userId: body.user_id,
      labId: test.labId!,
      labAccountId: body.lab_account_id ?? null,
      physician: null,
      patientState: body.shipping_details.state,
      billingType: 'client_bill',
      now: new Date(),
      network: deps.serviceNetwork,
      accounts,
    });
    const result = await startOrder(
      c,
      deps,
      {
        userId: body.user_id,
        labTestId: body.lab_test_id,
        method: 'testkit',
        registrable: true,
        sampleId: newSampleId(),
        shippingDetails: body.shipping_details,
        passthrough: body.passthrough ?? null,
        labAccountId: around.account.id,
        physician: orderPhysician(around.physician),
      },
      { registrable: true, idempotency: null },
    );
    return c.json(result);
  });

  // A registered order for a patient, of any collection method, honouring X-Idempotency-Key. The spec's
  // POST /v3/order/create is the same operation (optional lab_account_id, resolved when omitted).
  const createOrder = async (c: Context<AppEnv>) => {
    const body = await parseJsonBody(c, createOrderBody);
    const teamId = c.get('teamId');
    const idempotency = idempotencyKeyOf(c, body);
    const labTestId = body.order_set?.lab_test_ids?.[0] ?? body.lab_test_id!;
    const labAccountId = body.lab_account_id ?? body.order_set?.lab_account_id ?? null;
    // the key and what the order refers to in one read; the key is answered first, as before
    const read = await readOrderRefs(deps, teamId, body.user_id, labTestId, labAccountId, idempotency?.key);
    if (idempotency) {
      const seen = read.idempotency;
      if (seen && seen.requestHash !== idempotency.requestHash) throw idempotencyConflict();
      if (seen) return c.json(await respond(teamId, seen.orderId, 'Order created successfully'));
    }
    const { method, test, refs, accounts } = checkedOrderRefs(read, labTestId, labAccountId);
    if (body.collection_method && body.collection_method !== method) {
      throw new ValidationError([
        { loc: ['body', 'collection_method'], msg: `the lab test is collected by ${method}`, type: 'value_error' },
      ]);
    }
    const aoeAnswers = aoeAnswersFor(refs.markers, body.aoe_answers ?? []);
    // The lab account (given or resolved), delegation, billing, insurance and ICD-10 checks (README "Lab accounts").
    const around = await checkOrderSurroundings(db, {
      teamId,
      userId: body.user_id,
      labId: test.labId!,
      labAccountId,
      physician: body.physician ?? null,
      patientState: body.patient_address.state,
      billingType: body.billing_type ?? 'client_bill',
      icdCodes: body.icd_codes ?? null,
      healthInsurance: (body.health_insurance as { payor_code?: string | null } | null | undefined) ?? null,
      now: new Date(),
      network: deps.serviceNetwork,
      accounts,
    });
    const pd = body.patient_details;
    const result = await startOrder(
      c,
      deps,
      {
        userId: body.user_id,
        labTestId,
        method,
        registrable: false,
        sampleId: newSampleId(),
        patientDetails: pd,
        patientAddress: body.patient_address,
        shippingDetails: {
          receiver_name: body.patient_address.receiver_name ?? `${pd.first_name} ${pd.last_name}`,
          first_line: body.patient_address.first_line,
          second_line: body.patient_address.second_line,
          city: body.patient_address.city,
          state: body.patient_address.state,
          zip: body.patient_address.zip,
          country: body.patient_address.country,
          phone_number: body.patient_address.phone_number ?? pd.phone_number,
        },
        physician: body.physician ?? orderPhysician(around.physician),
        consents: body.consents ?? null,
        healthInsurance: body.health_insurance ?? null,
        aoeAnswers,
        activateBy: body.activate_by ?? null,
        passthrough: body.passthrough ?? null,
        priority: body.priority ?? false,
        billingType: body.billing_type ?? 'client_bill',
        icdCodes: around.icdCodes,
        clinicalNotes: body.clinical_notes ?? null,
        labAccountId,
      },
      { registrable: false, idempotency },
    );
    return c.json(result);
  };
  app.post('/order', createOrder);
  app.post('/order/create', createOrder);

  app.post('/order/testkit/register', async (c) => {
    const body = await parseJsonBody(c, registerTestkitBody);
    const teamId = c.get('teamId');
    const [order] = await db.select().from(orders).where(and(eq(orders.teamId, teamId), eq(orders.sampleId, body.sample_id))).limit(1);
    if (!order) throw notFound('No order with this sample_id');
    if (!order.registrable) throw badRequest('This order is not a registrable testkit order');
    if (isFinishedStatus(order.lowLevelStatus)) throw badRequest(`Cannot register this kit: the order is ${order.lowLevelStatus}`);
    const userId = body.user_id ?? order.userId;
    const user = await findUser(db, teamId, userId);
    if (!user || user.deletedAt) throw notFound('User does not exist on this team');
    try {
      await deps.temporal.workflow.getHandle(labOrderWorkflowId(order.id)).executeUpdate(registerUpdate, {
        args: [
          {
            sampleId: body.sample_id,
            userId,
            patientDetails: body.patient_details,
            patientAddress: body.patient_address,
            physician: body.physician ?? orderPhysician(servicePhysicianFor(body.patient_address.state, deps.serviceNetwork)),
            consents: body.consents ?? null,
            healthInsurance: body.health_insurance ?? null,
          },
        ],
      });
    } catch (err) {
      const reason = refusal(err);
      if (reason) throw badRequest(`Cannot register this kit: ${reason}`);
      throw err;
    }
    return c.json(await respond(teamId, order.id, 'Testkit registered successfully'));
  });

  app.get('/orders', async (c) => {
    const q = parse(listOrdersQuery, queryWithRepeats(c.req.queries()), 'query');
    const teamId = c.get('teamId');
    const interpretation = q.is_critical === 'true' ? 'critical' : q.interpretation;
    const { rows, total } = await listOrders(db, teamId, {
      userId: q.user_id,
      statuses: q.status,
      methods: q.order_type,
      orderIds: q.order_ids,
      createdFrom: q.start_date,
      createdTo: q.end_date,
      updatedFrom: q.updated_start_date,
      updatedTo: q.updated_end_date,
      activation: q.order_activation_types,
      interpretation,
      search: q.search_input,
      patientName: q.patient_name,
      shippingRecipientName: q.shipping_recipient_name,
      orderKey: q.order_key,
      direction: q.order_direction,
      page: q.page,
      size: q.size,
      today: new Date().toISOString().slice(0, 10),
    });
    return c.json({ orders: await orderViews(db, teamId, rows, deps.loadLabTests, deps.urlSigner), total, page: q.page, size: q.size });
  });

  app.get('/order/:order_id', async (c) => {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const view = await orderView(db, c.get('teamId'), order_id, deps.loadLabTests, deps.urlSigner);
    if (!view) throw notFound(THIS_ORDER_MISSING);
    return c.json(view);
  });

  app.post('/order/:order_id/cancel', async (c) => {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const order = await requireOrder(teamId, order_id);
    const refused = () => badRequest(`Transition from ${order.lowLevelStatus} to cancelled is not allowed`);
    if (isFinishedStatus(order.lowLevelStatus)) throw refused(); // its workflow has ended
    try {
      await deps.temporal.workflow.getHandle(order.workflowId).executeUpdate(cancelUpdate, { args: [{ as: 'cancelled' }] });
    } catch (err) {
      if (refusal(err)) throw refused();
      throw err;
    }
    return c.json(await respond(teamId, order_id, 'Order cancelled successfully'));
  });

  // On-site collection: the customer's staff report the draw; other methods refuse it (their lifecycle says why).
  app.patch('/order/:order_id/draw_completed', async (c) => {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const order = await requireOrder(teamId, order_id);
    if (order.method !== 'on_site_collection') throw badRequest(`Only on_site_collection orders are marked drawn by the customer; this order is ${order.method}`);
    if (isFinishedStatus(order.lowLevelStatus)) throw badRequest(`Transition from ${order.lowLevelStatus} to draw_completed is not allowed`);
    try {
      await deps.temporal.workflow.getHandle(order.workflowId).executeUpdate(drawCompletedUpdate);
    } catch (err) {
      const reason = refusal(err);
      if (reason) throw badRequest(`Transition to draw_completed refused: ${reason}`);
      throw err;
    }
    return c.json(await respond(teamId, order_id, 'Order draw marked as completed'));
  });

  // Sandbox only: walk the order's real workflow along the real path to `final_status`.
  app.post('/order/:order_id/test', async (c) => {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const q = parseQuery(c, simulateQuery);
    const raw = await c.req.text();
    const flags = parse(simulationFlags, raw.trim() ? readJson(raw) : null, 'body');
    const teamId = c.get('teamId');
    if (deps.environment !== 'sandbox') throw new HttpError(403, 'Order simulation is only available in the sandbox environment');
    const order = await requireOrder(teamId, order_id);
    if (isFinishedStatus(order.lowLevelStatus)) throw badRequest(`Cannot simulate this order: it is already ${order.lowLevelStatus}`);
    const finalStatus = q.final_status ?? `completed.${order.method}.completed`;
    const target = parseEventStatus(finalStatus);
    if (!target) {
      throw new ValidationError([{ loc: ['query', 'final_status'], msg: `${finalStatus} is not an order status`, type: 'enum' }]);
    }
    if (target.method !== order.method) throw badRequest(`${finalStatus} is not a status of a ${order.method} order`);
    try {
      await deps.temporal.workflow.getHandle(order.workflowId).executeUpdate(simulateUpdate, {
        args: [
          {
            target: target.low,
            delaySeconds: q.delay,
            interpretation: flags?.interpretation ?? 'normal',
            resultTypes: flags?.result_types ?? null,
            hasMissingResults: flags?.has_missing_results ?? false,
          },
        ],
      });
    } catch (err) {
      const reason = refusal(err);
      if (reason) throw badRequest(`Cannot simulate this order: ${reason}`);
      throw err;
    }
    return c.json('Success');
  });

  app.route('/', orderDocumentsRoutes(deps)); // requisition PDF and results: documents.ts
  app.route('/', orderTransactionsRoutes(deps)); // an initial order and its redraws: transactions.ts
  app.route('/', appointmentRoutes(deps)); // phlebotomy and PSC appointments: api/routes/appointments/
  app.route('/', importOrderRoutes(deps)); // orders whose requisition already exists: import.ts

  return app;
}

/** Repeatable query keys (`?status=a&status=b`) stay arrays; other keys take their last value. */
const REPEATABLE = new Set(['status', 'order_type', 'order_activation_types', 'order_ids']);
function queryWithRepeats(all: Record<string, string[]>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, REPEATABLE.has(k) ? v : (v[v.length - 1] ?? '')]));
}
