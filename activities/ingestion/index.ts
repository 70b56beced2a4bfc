import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'drizzle-orm';
import { wearableEventId } from '../../domain/wearables/events.js';
import type { Db } from '../../db/client.js';
import { recordTeamEvent } from '../../db/queries/events.js';
import { ensureSamplePartitions, findIngestionOwner, pauseConnection, recordPulls, upsertSamples, upsertSummaries } from '../../db/queries/wearables.js';
import type { SampleRecord, SummaryRecord, WearableAdapter } from '../../domain/wearables/adapter.js';
import { sandboxAdapter } from '../../domain/wearables/sandbox.js';
import { addDays, daysBetween, isValidTimeZone, localDay, localMidnight } from '../../domain/wearables/time.js';
import type { Logger } from '../../lib/logger.js';
import { DEMO_BACKFILL_DAYS, LATE_DELIVERY_DAYS, type IngestionInput } from '../../workflows/ingestion/definitions.js';
import { eventAnnouncer } from '../webhooks/announce.js';
import { buildIngestionEvents } from './events.js';

interface Deps {
  db: Db;
  logger: Logger;
  wakeEndpoints: (endpointIds: string[]) => Promise<void>;
  /** Provider adapters (default: the sandbox providers). */
  adapterFor?: (provider: string) => WearableAdapter | null;
  clock?: () => Date;
}

/** Connection statuses that end ingestion. */
const STOPPED = new Set(['paused', 'deregistered', 'disconnected', 'error', 'deleted']);

export interface IngestionPlan {
  active: boolean;
  /** Days of the historical pull (empty when ingestion_start/end exclude it all). */
  backfillDays: string[];
  /** Days of a periodic pull: yesterday and today (local), within the bounds. */
  pullDays: string[];
  /** Past ingestion_end + 7 days: pause the connection. */
  pastLateWindow: boolean;
}

export function createIngestionActivities(deps: Deps) {
  const clock = deps.clock ?? (() => new Date());
  const adapterFor = deps.adapterFor ?? sandboxAdapter;
  const announce = eventAnnouncer(deps.db, deps.wakeEndpoints);

  function adapter(provider: string): WearableAdapter {
    const a = adapterFor(provider);
    if (!a) throw ApplicationFailure.nonRetryable(`no data adapter for provider ${provider}`, 'UnknownProvider');
    return a;
  }

  return {
    /** What to pull, from the connection's user's current settings (ingestion bounds, time zone). */
    async planIngestion(input: IngestionInput): Promise<IngestionPlan> {
      const owner = await findIngestionOwner(deps.db, input.teamId, input.connectionId);
      if (!owner || owner.userDeleted || STOPPED.has(owner.status)) return { active: false, backfillDays: [], pullDays: [], pastLateWindow: false };
      const tz = owner.timeZone && isValidTimeZone(owner.timeZone) ? owner.timeZone : 'UTC';
      const today = localDay(clock(), tz);
      const limit = input.demo ? DEMO_BACKFILL_DAYS : adapter(owner.provider).historyLimitDays;
      let from = addDays(today, -(limit - 1));
      if (owner.ingestionStart && owner.ingestionStart > from) from = owner.ingestionStart;
      let to = today;
      if (owner.ingestionEnd && owner.ingestionEnd < to) to = owner.ingestionEnd;
      const pullFrom = [addDays(today, -1), owner.ingestionStart ?? ''].sort().at(-1)!;
      const pastLateWindow = owner.ingestionEnd !== null && addDays(owner.ingestionEnd, LATE_DELIVERY_DAYS + 1) <= today;
      return {
        active: true,
        backfillDays: from <= to ? daysBetween(from, to) : [],
        pullDays: pullFrom <= to ? daysBetween(pullFrom, to) : [],
        pastLateWindow,
      };
    },

    /**
     * Pulls the given local days from the provider, upserts samples (one statement per batch) and
     * summaries, and records the daily.data events of a periodic pull in the same transaction. `pullKey` (from the
     * workflow) makes the event ids stable across retries of this activity.
     */
    async ingestDays(input: IngestionInput & { days: string[]; pullKey: string; historical: boolean }) {
      const owner = await findIngestionOwner(deps.db, input.teamId, input.connectionId);
      if (!owner) return { samples: 0, created: 0, updated: 0, summaries: 0, events: 0 };
      const tz = owner.timeZone && isValidTimeZone(owner.timeZone) ? owner.timeZone : 'UTC';
      const source = adapter(owner.provider);
      const now = clock();
      const samples: SampleRecord[] = [];
      const summaries: SummaryRecord[] = [];
      for (const day of input.days) {
        const data = source.fetchDay({ connectionId: input.connectionId, provider: owner.provider, day, timeZone: tz, now });
        samples.push(...data.samples);
        summaries.push(...data.summaries);
      }
      if (samples.length) {
        const times = samples.map((s) => s.timestamp.getTime());
        await ensureSamplePartitions(deps.db, new Date(Math.min(...times)), new Date(Math.max(...times)));
      }
      const eventIds: string[] = [];
      const outcome = await deps.db.transaction(async (tx) => {
        const upserted = await upsertSamples(tx, owner.userId, owner.provider, samples);
        const stored = await upsertSummaries(tx, { teamId: owner.teamId, userId: owner.userId, connectionId: input.connectionId, provider: owner.provider }, summaries);
        // A historical pull (backfill) announces nothing per batch: its data is announced once per resource by
        // the data-less historical.data.<resource>.created when the pull completes (BEHAVIOUR §7), and read
        // through the API. daily.data events are for what later pulls discover.
        const events = input.historical ? [] : buildIngestionEvents({ owner, pullKey: input.pullKey, samples: upserted, summaries: stored, at: now });
        for (const e of events) {
          await recordTeamEvent(tx, e);
          eventIds.push(e.id);
        }
        const byResource = new Map<string, { resource: string; count: number; oldest: Date; newest: Date }>();
        for (const s of upserted) {
          const r = byResource.get(s.resource) ?? { resource: s.resource, count: 0, oldest: s.timestamp, newest: s.timestamp };
          if (s.created) r.count += 1;
          if (s.timestamp < r.oldest) r.oldest = s.timestamp;
          if (s.timestamp > r.newest) r.newest = s.timestamp;
          byResource.set(s.resource, r);
        }
        for (const s of stored) {
          const at = new Date(`${s.calendarDate}T00:00:00Z`);
          const r = byResource.get(s.resource) ?? { resource: s.resource, count: 0, oldest: at, newest: at };
          if (s.created) r.count += 1;
          byResource.set(s.resource, r);
        }
        await recordPulls(tx, owner, [...byResource.values()]);
        return {
          samples: upserted.length,
          created: upserted.filter((s) => s.created).length,
          updated: upserted.filter((s) => !s.created).length,
          summaries: stored.length,
          events: events.length,
        };
      });
      if (eventIds.length) await announce(...eventIds);
      return outcome;
    },

    /** After a backfill: the historical pull is done; one historical.data.<resource>.created per resource. */
    async completeHistoricalPull(input: IngestionInput & { days: string[] }) {
      const owner = await findIngestionOwner(deps.db, input.teamId, input.connectionId);
      if (!owner || !input.days.length) return { events: 0 };
      const tz = owner.timeZone && isValidTimeZone(owner.timeZone) ? owner.timeZone : 'UTC';
      const start = localMidnight(input.days[0]!, tz);
      const end = localMidnight(addDays(input.days.at(-1)!, 1), tz);
      const eventIds: string[] = [];
      await deps.db.transaction(async (tx) => {
        await recordPulls(tx, owner, [], { status: 'success', start, end });
        const resources = await tx.execute<{ resource: string }>(
          sql`select resource from wearable_pulls where user_id = ${owner.userId}::uuid and provider = ${owner.provider}`,
        );
        for (const { resource } of resources) {
          const id = wearableEventId(input.connectionId, 'historical', resource, input.days[0]!);
          await recordTeamEvent(tx, {
            id,
            teamId: owner.teamId,
            userId: owner.userId,
            clientUserId: owner.clientUserId,
            eventType: `historical.data.${resource}.created`,
            data: { user_id: owner.userId, start_date: start.toISOString(), end_date: end.toISOString(), is_final: true, provider: owner.provider },
            subjectId: input.connectionId,
            createdAt: clock(),
          });
          eventIds.push(id);
        }
      });
      if (eventIds.length) await announce(...eventIds);
      return { events: eventIds.length };
    },

    async pauseIngestedConnection(input: IngestionInput): Promise<void> {
      await pauseConnection(deps.db, input.connectionId);
      deps.logger.info({ connectionId: input.connectionId }, 'ingestion window closed: connection paused');
    },
  };
}
