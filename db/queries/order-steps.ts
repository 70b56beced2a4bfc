import { and, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { compiledByShape, runBound } from './compiled.js';
import type { DbOrTx } from '../client.js';
import { appointments, idempotencyKeys, orderEvents, orderTransactions, orders, teams, users } from '../schema/index.js';
import { rowFromJson } from './json-rows.js';
import { cacheLabTestView, cachedLabTestView, labTestJson, labTestViewFromJson } from './lab-test-view.js';
import { transactionMember, transactionView, type TransactionMember } from './order-transactions.js';
import type { OrderPayloadRows } from './order-view.js';

/**
 * The statements that record an order's steps: each writes (the order row, its event) and, in the same
 * statement, reads everything the step's webhook payload is made of (the order as GET returns it), so a
 * step costs one statement before its outbox write instead of one per table.
 */

type OrderInsert = typeof orders.$inferInsert;

/** What a step's statement read beside its write. */
export interface StepRead {
  /** False when the event was already there (a retried step): nothing was written, the rows are as they are. */
  appended: boolean;
  rows: OrderPayloadRows;
  user: { id: string; clientUserId: string | null } | null;
  partialWebhooks: boolean;
}

/**
 * Lab tests of the orders this process recorded steps for, to send the cached version of the right one (a
 * wrong guess costs only the lab test sent in full: its version names the test).
 */
const labTestOfOrder = new Map<string, string>();
const REMEMBERED_ORDERS = 4096;

function rememberLabTest(orderId: string, labTestId: string): void {
  labTestOfOrder.delete(orderId);
  labTestOfOrder.set(orderId, labTestId);
  if (labTestOfOrder.size > REMEMBERED_ORDERS) labTestOfOrder.delete(labTestOfOrder.keys().next().value!);
}

/**
 * The tenant check of a row found by its own key (the order's id, its transaction's id), written so that the
 * planner cannot use it as an index condition: on a young table (no statistics yet) an index led by
 * team_id looks as cheap as the primary key, and a plan that takes it reads every order of the team at
 * every step, more with each order (seen in bench:orders: 60+ rows filtered per step after 200 orders).
 */
const sameTeam = (column: SQL | typeof orders.teamId, teamId: Placeholder) => sql`${column}::text = ${teamId}::text`;

/**
 * The columns a step's statement reads beside its write, for the order in CTE `cur` (one column `o`: the
 * order row as jsonb, after the write) and its new event in CTE `ev` (empty when none was written; a CTE
 * does not see its siblings' writes, so the events are the stored ones plus `ev`). The lab test comes back
 * only when its version differs from the one this process has cached.
 */
function readColumns(teamId: Placeholder, knownLabTestVersion: Placeholder): SQL {
  return sql`
    (select count(*) from ev)::int as appended,
    cur.o as "order",
    (select jsonb_agg(e.v order by e.n) from (
       select to_jsonb(x) v, x.id n from ${orderEvents} x where x.order_id = (cur.o->>'id')::uuid
       union all select to_jsonb(ev) v, ev.id n from ev) e) as events,
    (select jsonb_agg(m.v order by (m.v->>'created_at')::timestamptz, (m.v->>'id')::uuid) from (
       select to_jsonb(x) v from ${orders} x
       where x.transaction_id = (cur.o->>'transaction_id')::uuid and ${sameTeam(sql`x.team_id`, teamId)} and x.id <> (cur.o->>'id')::uuid
       union all select cur.o) m) as members,
    (select a.id from ${appointments} a where a.order_id = (cur.o->>'id')::uuid order by a.created_at desc limit 1) as appointment_id,
    (select jsonb_build_object('id', u.id, 'client_user_id', u.client_user_id) from ${users} u where u.id = (cur.o->>'user_id')::uuid) as "user",
    coalesce((select t.partial_webhooks_enabled from ${teams} t where t.id = ${teamId}), false) as partial_webhooks,
    lt.version as lab_test_version,
    case when lt.version is not distinct from ${knownLabTestVersion}::text then null else lt.j end as lab_test
  from cur left join lateral (
    select y.j, md5(y.j::text) as version from (select ${labTestJson(sql`(cur.o->>'lab_test_id')::uuid`, teamId)} as j) y
  ) lt on true
  where cur.o is not null`;
}

/**
 * The light read of a step in a run of steps (one transaction, `StepContext`): the order row and its events
 * only; what cannot change within the run (the lab test, the user, the team's setting, the appointment, the
 * other orders of the transaction) comes from the run's first step.
 */
function lightReadColumns(): SQL {
  return sql`
    (select count(*) from ev)::int as appended,
    cur.o as "order",
    (select jsonb_agg(e.v order by e.n) from (
       select to_jsonb(x) v, x.id n from ${orderEvents} x where x.order_id = (cur.o->>'id')::uuid
       union all select to_jsonb(ev) v, ev.id n from ev) e) as events
  from cur
  where cur.o is not null`;
}

/**
 * What a step read that the next steps of the same run, in the same transaction, need not read again. The
 * other orders of its transaction could change meanwhile only by a concurrent write, which the payload of a
 * step sent a moment later would show anyway.
 */
export interface StepContext {
  labTest: Record<string, unknown>;
  members: TransactionMember[];
  appointmentId: string | null;
  user: StepRead['user'];
  partialWebhooks: boolean;
}

/** The context a step's read gives the next steps of its run. */
export function stepContext(read: StepRead): StepContext {
  return {
    labTest: read.rows.labTest,
    members: read.rows.transaction?.orders ?? [],
    appointmentId: read.rows.appointmentId,
    user: read.user,
    partialWebhooks: read.partialWebhooks,
  };
}

type ReadRow = {
  appended: number;
  order: Record<string, unknown>;
  events: Record<string, unknown>[] | null;
  members: Record<string, unknown>[] | null;
  appointment_id: string | null;
  user: { id: string; client_user_id: string | null } | null;
  partial_webhooks: boolean;
  lab_test_version: string | null;
  lab_test: Parameters<typeof labTestViewFromJson>[0] | null;
};

function stepRead(row: ReadRow | undefined, orderId: string, known: { version: string; view: Record<string, unknown> } | null): StepRead {
  if (!row) throw new Error(`order ${orderId} not found while building its event`);
  const order = rowFromJson(orders, row.order);
  rememberLabTest(order.id, order.labTestId);
  let labTest: Record<string, unknown> = {};
  if (row.lab_test && row.lab_test_version) {
    const view = labTestViewFromJson(row.lab_test);
    cacheLabTestView(order.labTestId, row.lab_test_version, view);
    labTest = view;
  } else if (row.lab_test_version && known) {
    labTest = known.view; // unchanged since this process built it
  }
  const members = (row.members ?? []).map((m) => transactionMember(rowFromJson(orders, m)));
  return {
    appended: row.appended > 0,
    rows: {
      order,
      events: (row.events ?? []).map((e) => rowFromJson(orderEvents, e)),
      labTest,
      transaction: members.length ? transactionView(order.transactionId, members) : null,
      appointmentId: row.appointment_id,
    },
    user: row.user ? { id: row.user.id, clientUserId: row.user.client_user_id } : null,
    partialWebhooks: row.partial_webhooks,
  };
}

function lightStepRead(row: Pick<ReadRow, 'appended' | 'order' | 'events'> | undefined, orderId: string, context: StepContext): StepRead {
  if (!row) throw new Error(`order ${orderId} not found while building its event`);
  const order = rowFromJson(orders, row.order);
  // the order keeps its place among its transaction's orders (by creation): only its own entry changes
  const members = context.members.map((m) => (m.id === order.id ? transactionMember(order) : m));
  return {
    appended: row.appended > 0,
    rows: {
      order,
      events: (row.events ?? []).map((e) => rowFromJson(orderEvents, e)),
      labTest: context.labTest,
      transaction: members.length ? transactionView(order.transactionId, members) : null,
      appointmentId: context.appointmentId,
    },
    user: context.user,
    partialWebhooks: context.partialWebhooks,
  };
}

const knownView = (labTestId: string | undefined) => (labTestId ? cachedLabTestView(labTestId) : null);

/** Builds statements only (never runs one): their text is rendered once per shape (compiled.ts). */
const builder = drizzle.mock();
const p = (name: string) => sql.placeholder(name);

/** `writeStep`'s statement for the columns it sets (its shape); every value a placeholder. */
const stepStatement = compiledByShape((shapeAndRead) => {
  const [shape = '', read] = shapeAndRead.split('|');
  const set = Object.fromEntries(shape.split(',').map((key) => [key, p(`set.${key}`)])) as unknown as Partial<OrderInsert>;
  const ev = builder
    .insert(orderEvents)
    .values({ orderId: p('orderId'), id: p('eventId'), status: p('status'), statusDetail: p('statusDetail'), createdAt: p('now') } as unknown as typeof orderEvents.$inferInsert)
    .onConflictDoNothing()
    .returning();
  const upd = builder
    .update(orders)
    .set(set)
    .where(and(sql`${orders.id} = ${p('orderId')}`, sameTeam(orders.teamId, p('teamId')), sql`exists (select 1 from ev)`))
    .returning();
  return sql`
    with ev as (${ev.getSQL()}), upd as (${upd.getSQL()}),
    cur as (select coalesce((select to_jsonb(upd) from upd), (select to_jsonb(o) from ${orders} o where o.id = ${p('orderId')} and ${sameTeam(sql`o.team_id`, p('teamId'))})) as o)
    select ${read === 'light' ? lightReadColumns() : readColumns(p('teamId'), p('knownLabTest'))}`;
});

/**
 * One step of an existing order in one statement: appends event `eventId` (a no-op when it exists), updates
 * the order row when the event is new, and reads the order's payload parts after the write.
 */
export async function writeStep(
  db: DbOrTx,
  input: { teamId: string; orderId: string; eventId: number; status: string; statusDetail: string | null; set: Partial<OrderInsert>; now: Date },
  /**
   * The run's first step's context (same transaction): the light read. It may still be on its way (the
   * statement is sent first, the context awaited after): a step pipelined behind the run's first statement.
   */
  context?: StepContext | Promise<StepContext>,
): Promise<StepRead> {
  const { teamId, orderId, now } = input;
  const known = context ? null : knownView(labTestOfOrder.get(orderId));
  const set = Object.entries(input.set).filter(([, v]) => v !== undefined);
  const statement = stepStatement(`${set.map(([key]) => key).join(',')}|${context ? 'light' : 'full'}`);
  const rows = await runBound<ReadRow>(
    db,
    statement({
      ...Object.fromEntries(set.map(([key, v]) => [`set.${key}`, v])),
      orderId,
      teamId,
      eventId: input.eventId,
      status: input.status,
      statusDetail: input.statusDetail,
      now,
      ...(context ? {} : { knownLabTest: known?.version ?? null }),
    }),
  );
  return context ? lightStepRead(rows[0], orderId, await context) : stepRead(rows[0], orderId, known);
}

/** `writeCreation`'s statement for the columns the new order has, whether it opens its transaction and has an idempotency key. */
const creationStatement = compiledByShape((shape) => {
  const [columns = '', opens, idempotent] = shape.split('|');
  const values = Object.fromEntries(columns.split(',').map((key) => [key, p(`order.${key}`)])) as unknown as typeof orders.$inferInsert;
  const transaction =
    opens === 'opens'
      ? sql`, tr as (${builder
          .insert(orderTransactions)
          .values({ id: p('order.transactionId'), teamId: p('order.teamId'), createdAt: p('order.createdAt') } as unknown as typeof orderTransactions.$inferInsert)
          .onConflictDoNothing({ target: orderTransactions.id })
          .getSQL()})`
      : sql``;
  const idem =
    idempotent === 'key'
      ? sql`, idem as (insert into ${idempotencyKeys} (team_id, key, request_hash, order_id) select ${p('order.teamId')}::uuid, ${p('idempotencyKey')}::text, ${p('requestHash')}::text, ins.id from ins on conflict do nothing)`
      : sql``;
  return sql`
    with ins as (${builder.insert(orders).values(values).onConflictDoNothing({ target: orders.id }).returning().getSQL()})
    ${transaction}
    , ev as (insert into ${orderEvents} (order_id, id, status, status_detail, created_at) select ins.id, 1, ${p('status')}::text, null, ${p('now')}::timestamptz from ins returning *)
    ${idem}
    , cur as (select (select to_jsonb(ins) from ins) as o)
    select ${readColumns(p('order.teamId'), p('knownLabTest'))}`;
});

/**
 * A new order in one statement: opens its order transaction (an initial order), inserts the row and event 1
 * and the idempotency key, and reads the order's payload parts. Null when the order already exists.
 */
export async function writeCreation(
  db: DbOrTx,
  order: OrderInsert & { transactionId: string; createdAt: Date },
  firstStatus: string,
  idempotency: { key: string; requestHash: string } | null,
  opensTransaction: boolean,
): Promise<StepRead | null> {
  const known = knownView(order.labTestId);
  const columns = Object.entries(order).filter(([, v]) => v !== undefined);
  const statement = creationStatement(`${columns.map(([key]) => key).join(',')}|${opensTransaction ? 'opens' : 'joins'}|${idempotency ? 'key' : 'none'}`);
  const rows = await runBound<ReadRow>(
    db,
    statement({
      ...Object.fromEntries(columns.map(([key, v]) => [`order.${key}`, v])),
      status: firstStatus,
      now: order.createdAt.toISOString(),
      idempotencyKey: idempotency?.key ?? null,
      requestHash: idempotency?.requestHash ?? null,
      knownLabTest: known?.version ?? null,
    }),
  );
  const row = rows[0];
  return row ? stepRead(row, order.id, known) : null;
}
