import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type DbHandle } from '../../db/client.js';

// Migration 0017: the hot JSON columns are compressed with lz4 where the server has it, and the migration
// passes on a server without it (the embedded development server), which keeps pglz.
let handle: DbHandle;
beforeAll(() => {
  handle = createDb(inject('databaseUrl'), { max: 1 });
});
afterAll(() => handle?.close());

/** Whether this server can compress with lz4: it refuses the clause with feature_not_supported otherwise. */
async function serverHasLz4(): Promise<boolean> {
  try {
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table lz4_probe (d jsonb compression lz4) on commit drop`);
    });
    return true;
  } catch (err) {
    expect((err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code).toBe('0A000');
    return false;
  }
}

describe('storage of large JSON documents', () => {
  it('compresses event payloads, results, parsed reports and summaries with lz4 when the server has it', async () => {
    const lz4 = await serverHasLz4();
    const rows = await handle.db.execute<{ table: string; column: string; compression: string }>(sql`
      select c.relname as table, a.attname as column, a.attcompression::text as compression
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = 'public'::regnamespace and (c.relname, a.attname) in (
        ('outbox_events', 'data'), ('order_results', 'results'), ('parsing_jobs', 'data'), ('parsing_jobs', 'parsed_data'), ('wearable_summaries', 'data'))`);
    expect(rows).toHaveLength(5);
    // 'l' is lz4; '' is the server's default (pglz)
    for (const r of rows) expect({ ...r }).toEqual({ table: r.table, column: r.column, compression: lz4 ? 'l' : '' });
  });
});
