import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { outboxEvents, webhookDeliveries, webhookEndpoints } from '../schema/index.js';
import { compiled, runBound } from './compiled.js';
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

/**
 * `recordTeamEvents`' statement, one text for any number and mix of events (prepared once per connection): the
 * events come as one JSON parameter (one JSON.stringify of the list, no parameter per field), and each
 * endpoint's filter is tested against each event's own type.
 */
const eventsStatement = compiled<'events'>(sql`
    with event as (
      insert into ${outboxEvents} (id, team_id, user_id, client_user_id, event_type, subject_id, data, created_at)
      select v.id, v.team_id, v.user_id, v.client_user_id, v.event_type, v.subject_id, v.data, v.created_at
      from json_to_recordset(${sql.placeholder('events')}::json) as v(id uuid, team_id uuid, user_id uuid, client_user_id text,
        event_type text, subject_id uuid, data jsonb, created_at timestamptz)
      on conflict do nothing
      returning id, team_id, event_type, created_at
    ), queued as (
      insert into ${webhookDeliveries} (event_id, endpoint_id, team_id, status, trigger, attempts, next_attempt_at, created_at)
      select event.id, ${webhookEndpoints.id}, ${webhookEndpoints.teamId}, 'pending', 'event', 0, event.created_at, event.created_at
      from event join ${webhookEndpoints} on ${webhookEndpoints.teamId} = event.team_id
      where ${webhookEndpoints.enabled} and ${endpointWants(sql`event.event_type`)}
      returning endpoint_id
    )
    select array(select id::text from event) as recorded, array(select endpoint_id::text from queued) as endpoints`);

/**
 * `recordTeamEvent` for several events in one statement (a step's order update and its critical-result
 * event). Returns the events written now (a retry finds them written and gets none) and the endpoints that
 * got work from them.
 */
export async function recordTeamEvents(tx: DbOrTx, events: NewTeamEvent[]): Promise<{ recorded: string[]; endpoints: string[] }> {
  if (events.length === 0) return { recorded: [], endpoints: [] };
  const rows = events.map((e) => ({
    id: e.id,
    team_id: e.teamId,
    user_id: e.userId ?? null,
    client_user_id: e.clientUserId ?? null,
    event_type: e.eventType,
    subject_id: e.subjectId ?? null,
    data: e.data,
    created_at: e.createdAt.toISOString(),
  }));
  const statement = eventsStatement({ events: JSON.stringify(rows) });
  const [row] = await runBound<{ recorded: string[]; endpoints: string[] }>(tx, statement);
  // Endpoints made unique here, not in SQL: a `distinct` there is a sort per statement (~40 µs of Postgres CPU per
  // event recorded, of ~230, measured with bench/webhooks-record.ts), for lists of one or two.
  return { recorded: row?.recorded ?? [], endpoints: [...new Set(row?.endpoints ?? [])] };
}
