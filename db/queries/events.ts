import type { DbOrTx } from '../client.js';
import { outboxEvents } from '../schema/index.js';
import { fanOutEvent } from './webhooks.js';

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
 * Appends an event to the team's event log and queues it for every endpoint that wants it, inside
 * the caller's transaction. Idempotent on the event id: a second call writes nothing. Returns the
 * endpoints that got work (to be woken once the transaction has committed).
 */
export async function recordTeamEvent(tx: DbOrTx, e: NewTeamEvent): Promise<string[]> {
  const [inserted] = await tx
    .insert(outboxEvents)
    .values({
      id: e.id,
      teamId: e.teamId,
      userId: e.userId ?? null,
      clientUserId: e.clientUserId ?? null,
      eventType: e.eventType,
      subjectId: e.subjectId ?? null,
      data: e.data,
      createdAt: e.createdAt,
    })
    .onConflictDoNothing()
    .returning({ id: outboxEvents.id });
  if (!inserted) return [];
  return fanOutEvent(tx, { id: e.id, teamId: e.teamId, eventType: e.eventType });
}
