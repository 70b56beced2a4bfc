import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { createDb } from '../db/client.js';
import { ensureSamplePartitions, upsertSamples } from '../db/queries/wearables.js';
import type { SampleRecord } from '../domain/wearables/adapter.js';
import { benchLog, cleanupStack, percentile, scratchServices } from './support.js';

/**
 * npm run bench:ingest — (1) samples per second through the deduplicating batch upsert (a realistic mix:
 * heart rate by minute, hourly steps and calories, 20% of each batch repeats earlier keys) against a raw
 * COPY of the same distinct rows into the same table in the same run (rows per second each: the upsert's
 * count includes the repeats it deduplicates, COPY's only the rows it can take); (2) p99 of a 30-day heart-rate read for a
 * user with a year of minute data. BENCH_DATABASE_URL uses that server (a fresh database, dropped after).
 */
const log = benchLog('ingest');
const cleanups = cleanupStack();
const BATCH = 5_000;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);

function batchFor(i: number, prev: SampleRecord[]): SampleRecord[] {
  const start = Date.UTC(2025, 0, 1) + i * 4 * 86_400_000;
  const fresh: SampleRecord[] = [];
  for (let k = 0; fresh.length < BATCH * 0.8; k++) {
    const t = new Date(start + k * 60_000);
    fresh.push({ resource: 'heartrate', timestamp: t, value: 60 + (k % 40), unit: 'bpm', sourceType: 'watch', timezoneOffset: 0 });
    if (k % 60 === 0) {
      fresh.push({ resource: 'steps', timestamp: t, end: new Date(t.getTime() + 3_600_000), value: k % 900, unit: 'count', sourceType: 'watch', timezoneOffset: 0 });
      fresh.push({ resource: 'calories_active', timestamp: t, end: new Date(t.getTime() + 3_600_000), value: 12.5, unit: 'kcal', sourceType: 'watch', timezoneOffset: 0 });
    }
  }
  const repeats = prev.slice(-BATCH * 0.2).map((s) => ({ ...s, value: s.value + 1 }));
  return [...fresh, ...repeats];
}

async function main() {
  const { databaseUrl } = await scratchServices(log, cleanups, { temporal: false, databaseUrl: process.env.BENCH_DATABASE_URL });
  const handle = createDb(databaseUrl, { max: 4 });
  cleanups.push(() => handle.close());
  const db = handle.db;
  log('creating monthly sample partitions for 2024–2025');
  await ensureSamplePartitions(db, new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2026, 0, 1)));

  // (1) dedupe upsert vs COPY, same rows, two users so neither run meets the other's keys.
  const upsertUser = randomUUID();
  const copyUser = randomUUID();
  let prev: SampleRecord[] = [];
  const batches = Array.from({ length: BATCHES }, (_, i) => (prev = batchFor(i, prev)));
  const total = batches.reduce((a, b) => a + b.length, 0);
  let t0 = performance.now();
  for (const [i, b] of batches.entries()) {
    await upsertSamples(db, upsertUser, 'fitbit', b);
    if (i % 10 === 9) log(`upsert: ${i + 1}/${BATCHES} batches`);
  }
  const upsertSecs = (performance.now() - t0) / 1000;
  log(`upsert: ${total} samples in ${upsertSecs.toFixed(1)} s; now the raw COPY of the same rows`);
  // COPY cannot update: a key already copied (the 20% repeats of earlier batches, or a repeat within a
  // batch) would fail the whole COPY. The raw baseline copies each distinct key once, batch by batch, so it
  // stores the same rows the upsert stores (with the first value, not the latest).
  const seen = new Set<string>();
  const copyBatches = batches.map((b) =>
    b.filter((s) => {
      const key = `${s.resource}|${s.timestamp.toISOString()}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  );
  const copied = copyBatches.reduce((a, b) => a + b.length, 0);
  // The baseline's text is built before the clock starts: only the COPY itself is timed.
  const copyTexts = copyBatches.map((b) =>
    b.map((s) => `${copyUser}\t${s.resource}\t${s.timestamp.toISOString()}\tfitbit\twatch\t${s.value}\t${s.end ? s.end.toISOString() : '\\N'}\t${s.unit}\t0\n`).join(''),
  );
  t0 = performance.now();
  for (const [i, text] of copyTexts.entries()) {
    const stream = await handle.sql`copy wearable_samples (user_id, resource, "timestamp", provider, source_type, value, "end", unit, timezone_offset) from stdin`.writable();
    await pipeline(Readable.from([text]), stream);
    if (i % 10 === 9) log(`copy: ${i + 1}/${BATCHES} batches`);
  }
  const copySecs = (performance.now() - t0) / 1000;
  const upsertRate = total / upsertSecs;
  const copyRate = copied / copySecs;
  const [{ n: stored }] = (await handle.sql`select count(*)::int as n from wearable_samples where user_id = ${upsertUser}`) as unknown as [{ n: number }];
  if (stored !== copied) throw new Error(`the upsert stored ${stored} rows, the COPY ${copied}: they should store the same keys`);
  // The upsert must have applied the repeats' new values (the latest wins); COPY kept the first ones.
  const first = new Map<string, number>();
  const latest = new Map<string, number>();
  for (const b of batches) for (const x of b) {
    const key = `${x.resource}|${x.timestamp.toISOString()}`;
    if (!first.has(key)) first.set(key, x.value);
    latest.set(key, x.value);
  }
  const expectDiffer = [...latest].filter(([k, v]) => first.get(k) !== v).length;
  const [{ n: differ }] = (await handle.sql`
    select count(*)::int as n from wearable_samples a join wearable_samples b using (resource, "timestamp", provider, source_type)
    where a.user_id = ${upsertUser} and b.user_id = ${copyUser} and a.value <> b.value`) as unknown as [{ n: number }];
  if (differ !== expectDiffer) throw new Error(`the upsert changed ${differ} values, expected ${expectDiffer}`);
  log(`checked: both store ${stored} rows; the upsert applied the ${differ} changed values`);

  // (2) a year of minute heart rate for one user, then 30-day reads.
  const reader = randomUUID();
  log('loading a year of minute heart rate (525,600 samples)…');
  await db.execute(sql`
    insert into wearable_samples (user_id, resource, "timestamp", provider, source_type, value, unit, timezone_offset)
    select ${reader}::uuid, 'heartrate', g, 'fitbit', 'watch', 60 + (extract(minute from g)::int % 30), 'bpm', 0
    from generate_series('2025-01-01'::timestamptz, '2025-12-31 23:59'::timestamptz, interval '1 minute') g`);
  await db.execute(sql`analyze wearable_samples`);
  const { readSamples } = await import('../db/queries/wearable-reads.js');
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const from = new Date(Date.UTC(2025, 0, 1) + (i % 330) * 86_400_000);
    const t = performance.now();
    const rows = await readSamples(db, { userId: reader, resource: 'heartrate', from, to: new Date(from.getTime() + 30 * 86_400_000), limit: 100_000 });
    times.push(performance.now() - t);
    if (rows.length !== 43_200) throw new Error(`expected 43200 samples, read ${rows.length}`);
    if (i % 25 === 24) log(`reads: ${i + 1}/100`);
  }
  times.sort((a, b) => a - b);
  const result = {
    samples_submitted: total,
    distinct_rows_stored: copied,
    upsert_per_second: Math.round(upsertRate),
    copy_per_second: Math.round(copyRate),
    ratio: Math.round((upsertRate / copyRate) * 100) / 100,
    read_30d_p50_ms: Math.round(percentile(times, 50) * 10) / 10,
    read_30d_p99_ms: Math.round(percentile(times, 99) * 10) / 10,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanups.run());
