import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.js';

export type Db = PostgresJsDatabase<typeof schema>;
/** A database handle or an open transaction: every query function accepts either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface DbHandle {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export function createDb(url: string, options: { max?: number; onQuery?: (query: string) => void } = {}): DbHandle {
  const onQuery = options.onQuery;
  // `onQuery` (benchmarks) sees the text of every statement sent.
  const sql = postgres(url, { max: options.max ?? 10, onnotice: () => {}, ...(onQuery ? { debug: (_conn: number, query: string) => onQuery(query) } : {}) });
  const db = drizzle(preparing(sql), { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/**
 * Drizzle sends its queries through `sql.unsafe`, which postgres.js does not prepare by default: every
 * query would be parsed and planned again. Queries here are built from a fixed set of shapes, so each
 * is prepared once per connection and reused (measured by bench:api: about twice the throughput).
 */
function preparing(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop !== 'unsafe') return Reflect.get(target, prop, receiver) as unknown;
      return (query: string, params?: postgres.ParameterOrJSON<never>[], opts?: postgres.UnsafeQueryOptions) =>
        target.unsafe(query, params, { ...opts, prepare: true });
    },
  });
}
