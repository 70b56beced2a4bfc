import type { NewTeamEvent } from '../../db/queries/events.js';
import type { IngestionOwner, UpsertedSample } from '../../db/queries/wearables.js';
import type { SummaryRecord } from '../../domain/wearables/adapter.js';
import { chunkBySize, clientFacingSource, sampleJson, sourceIdOf, wearableEventId } from '../../domain/wearables/events.js';

type StoredSummary = SummaryRecord & { created: boolean; createdAt: Date; updatedAt: Date };

/** The client-facing summary object (also the `data` of its daily.data event). */
export function summaryJson(owner: { userId: string; provider: string }, s: StoredSummary) {
  const extra = s.resource === 'workouts' ? { sport: (s.data.sport as { slug?: string } | undefined)?.slug, workout_id: s.id } : {};
  return {
    ...s.data,
    id: s.id,
    user_id: owner.userId,
    source: clientFacingSource(owner.provider, s.sourceType, extra),
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

/**
 * The daily.data events of one pull: per resource, one `.created` for the new samples and one
 * `.updated` for the changed ones (split to stay under the payload limit); one event per summary;
 * `daily.data.workout_stream.created` as a shallow pointer for each new workout.
 */
export function buildIngestionEvents(args: {
  owner: IngestionOwner;
  pullKey: string;
  samples: UpsertedSample[];
  summaries: StoredSummary[];
  at: Date;
}): NewTeamEvent[] {
  const { owner, pullKey, at } = args;
  const base = { teamId: owner.teamId, userId: owner.userId, clientUserId: owner.clientUserId, createdAt: at };
  const events: NewTeamEvent[] = [];
  const groups = new Map<string, UpsertedSample[]>();
  for (const s of args.samples) {
    const key = `${s.resource}|${s.sourceType}|${s.created ? 'created' : 'updated'}`;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  for (const [key, samples] of groups) {
    const [resource, sourceType, change] = key.split('|') as [string, string, string];
    chunkBySize(samples.map(sampleJson)).forEach((chunk, i) => {
      events.push({
        ...base,
        id: wearableEventId(pullKey, resource, sourceType, change, String(i)),
        eventType: `daily.data.${resource}.${change}`,
        subjectId: owner.userId,
        data: {
          user_id: owner.userId,
          source_id: sourceIdOf(owner.provider),
          source: clientFacingSource(owner.provider, sourceType),
          data: chunk,
        },
      });
    });
  }
  for (const s of args.summaries) {
    const change = s.created ? 'created' : 'updated';
    events.push({
      ...base,
      id: wearableEventId(pullKey, s.resource, s.id, change),
      eventType: `daily.data.${s.resource}.${change}`,
      subjectId: s.id,
      data: summaryJson(owner, s),
    });
    if (s.resource === 'workouts' && s.created) {
      events.push({
        ...base,
        id: wearableEventId(pullKey, 'workout_stream', s.id),
        eventType: 'daily.data.workout_stream.created',
        subjectId: s.id,
        data: {
          user_id: owner.userId,
          workout_id: s.id,
          provider_id: String(s.data.provider_id ?? s.id),
          message: `GET /v2/timeseries/workouts/${s.id}/stream`,
          source: clientFacingSource(owner.provider, s.sourceType),
          sport: s.data.sport ?? null,
        },
      });
    }
  }
  return events;
}
