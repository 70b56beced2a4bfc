/**
 * The baseline of bench:api: Hono on @hono/node-server with one route doing the same primary-key select
 * with postgres.js (same pool size), no auth, no logging, no validation. Prints its URL once it listens.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.BENCH_POOL ?? 10) });
const app = new Hono();
app.get('/v2/user/:id', async (c) => {
  const [row] = await sql`select * from users where id = ${c.req.param('id')} limit 1`;
  return row ? c.json(row) : c.json({ detail: 'not found' }, 404);
});
// BENCH_CPU_PROFILE (bench:api): this process is profiled too, into `<file>.bare.cpuprofile`, until SIGUSR2.
const profilePath = process.env.BENCH_CPU_PROFILE ? `${process.env.BENCH_CPU_PROFILE}.bare.cpuprofile` : undefined;
if (profilePath) {
  const { profileUntilSigusr2 } = await import('./support.js');
  await profileUntilSigusr2(profilePath, 200, () => process.stdout.write(`${profilePath}\n`));
}
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`http://127.0.0.1:${info.port}\n`);
});
