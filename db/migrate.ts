import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema/index.js';
import { seedCatalog } from './seed/catalog.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * The one migration entry point (used by `npm run dev`, `npm run migrate`, the test setup and the
 * docker-compose `migrate` service). Takes an advisory lock so concurrent starters do not race.
 * After the migrations it seeds the shared lab catalogue (db/seed; idempotent).
 */
export async function runMigrations(url: string, log: (msg: string) => void = () => {}): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(727274)`;
    log(`applying migrations from ${MIGRATIONS_DIR}`);
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_DIR });
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from drizzle.__drizzle_migrations`;
    log(`migrations up to date (${row?.count ?? 0} applied)`);
    await seedCatalog(drizzle(sql, { schema }), log);
  } finally {
    await sql`select pg_advisory_unlock(727274)`.catch(() => {});
    await sql.end({ timeout: 5 });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write('DATABASE_URL is required for `npm run migrate` (npm run dev migrates its embedded database itself)\n');
    process.exit(1);
  }
  runMigrations(url, (m) => process.stdout.write(`[migrate] ${m}\n`)).catch((err: unknown) => {
    process.stderr.write(`[migrate] failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
