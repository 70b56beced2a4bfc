import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { outboxEvents, webhookDeliveries, webhookEndpoints } from '../schema/index.js';
import { compiledByShape, runBound } from './compiled.js';
import { endpointWants } from './webhooks.js';

export interface NewTeamEvent {
  /** Stable id: the same on every retry of the writer and every delivery, resend and replay. */
  id: string;
  teamId: string;
  eventType: string;
  data: Record<string, unknown>;
  userId?: string | null;
  clientUserId?: string | null;
  /** The resource the event is about (an order id…), for per-resource replay. */
  subjectId?: string | null;
  createdAt: Date;
}

/**
 * Appends an event to the team's event log and queues it for every enabled endpoint of the team that
 * wants it (exact filters, dotted prefixes, or no filters), inside the caller's transaction and in one
 * statement. Idempotent on the event id: a second call writes nothing. Returns the endpoints that got
 * work (to be woken once the transaction has committed).
 */
export async function recordTeamEvent(tx: DbOrTx, e: NewTeamEvent): Promise<string[]> {
  return (await recordTeamEvents(tx, [e])).endpoints;
}

/** `recordTeamEvents`' statement for a list of event types (its shape), rendered once (compiled.ts). */
const eventsStatement = compiledByShape((shape) => {
  const types = shape.split(',');
  const p = (i: number, name: string) => sql.placeholder(`${i}.${name}`);
  const values = types.map(
    (_, i) => sql`(${p(i, 'id')}::uuid, ${p(i, 'teamId')}::uuid, ${p(i, 'userId')}::uuid, ${p(i, 'clientUserId')}::text, ${p(i, 'eventType')}::text,
      ${p(i, 'subjectId')}::uuid, ${p(i, 'data')}::jsonb, ${p(i, 'createdAt')}::timestamptz)`,
  );
  // One type (one event, or a batch of one kind): its filter alone; several: each type's filter for its events.
  const distinct = [...new Set(types)];
  const wanted =
    distinct.length === 1 ? [endpointWants(distinct[0]!)] : distinct.map((type) => sql`(event.event_type = ${type} and ${endpointWants(type)})`);
  return sql`
    with event as (
      insert into ${outboxEvents} (id, team_id, user_id, client_user_id, event_type, subject_id, data, created_at)
      values ${sql.join(values, sql`, `)}
      on conflict do nothing
      returning id, team_id, event_type, created_at
    ), queued as (
      insert into ${webhookDeliveries} (event_id, endpoint_id, team_id, status, trigger, attempts, next_attempt_at, created_at)
      select event.id, ${webhookEndpoints.id}, ${webhookEndpoints.teamId}, 'pending', 'event', 0, event.created_at, event.created_at
      from event join ${webhookEndpoints} on ${webhookEndpoints.teamId} = event.team_id
      where ${webhookEndpoints.enabled} and (${sql.join(wanted, sql` or `)})
      returning endpoint_id
    )
    select array(select id::text from event) as recorded, array(select endpoint_id::text from queued) as endpoints`;
});

/**
 * `recordTeamEvent` for several events in one statement (a step's order update and its critical-result
 * event). Returns the events written now (a retry finds them written and gets none) and the endpoints that
 * got work from them.
 */
export async function recordTeamEvents(tx: DbOrTx, events: NewTeamEvent[]): Promise<{ recorded: string[]; endpoints: string[] }> {
  if (events.length === 0) return { recorded: [], endpoints: [] };
  const statement = eventsStatement(events.map((e) => e.eventType).join(','));
  const values = Object.fromEntries(
    events.flatMap((e, i) => [
      [`${i}.id`, e.id],
      [`${i}.teamId`, e.teamId],
      [`${i}.userId`, e.userId ?? null],
      [`${i}.clientUserId`, e.clientUserId ?? null],
      [`${i}.eventType`, e.eventType],
      [`${i}.subjectId`, e.subjectId ?? null],
      [`${i}.data`, JSON.stringify(e.data)],
      [`${i}.createdAt`, e.createdAt.toISOString()],
    ]),
  );
  const [row] = await runBound<{ recorded: string[]; endpoints: string[] }>(tx, statement(values));
  // Endpoints made unique here, not in SQL: a `distinct` there is a sort per statement (~40 µs of Postgres CPU per
  // event recorded, of ~230, measured with bench/webhooks-record.ts), for lists of one or two.
  return { recorded: row?.recorded ?? [], endpoints: [...new Set(row?.endpoints ?? [])] };
}
