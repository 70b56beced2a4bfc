import type { Payload } from '@temporalio/common';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { findSession } from '../../db/queries/dashboard/operators.js';
import { DashboardError, type DashEnv, type DashboardDeps } from './env.js';
import { parseOr400 } from './params.js';
import { SESSION_COOKIE } from './session.js';

const b64 = z.string().max(4 * 1024 * 1024).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
/** Temporal's remote codec protocol: `{payloads: [{metadata: {k: base64}, data: base64}]}`. */
export const codecBody = z.object({
  payloads: z.array(z.object({ metadata: z.record(z.string().max(200), b64).default({}), data: b64.default('') })).max(1000),
});

/**
 * POST /dashboard/codec/decode: the Temporal UI's remote codec (`--ui-codec-endpoint <api>/dashboard/codec`),
 * so its payloads become readable for a logged-in operator. Authenticated by the operator's session cookie
 * (the UI must send credentials); CORS only for the configured UI origins. It changes nothing, so it takes no
 * CSRF token; a JSON body always needs a CORS preflight, which other origins fail.
 */
export function codecRoutes(deps: DashboardDeps) {
  const app = new Hono<DashEnv>();
  const origins = deps.codecCorsOrigins ?? [];
  app.use(
    '/codec/*',
    cors({ origin: (o) => (origins.includes(o) ? o : null), allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['content-type', 'x-namespace'], credentials: true }),
  );
  app.post('/codec/decode', async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (!token || !(await findSession(deps.db, token))) throw new DashboardError(401, 'Log in to the dashboard first.');
    if (!(c.req.header('content-type') ?? '').startsWith('application/json')) throw new DashboardError(400, 'Send JSON.');
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new DashboardError(400, 'The body is not JSON.');
    }
    const body = parseOr400(codecBody, raw);
    let payloads: Payload[] = body.payloads.map((p) => ({
      metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))])),
      data: new Uint8Array(Buffer.from(p.data, 'base64')),
    }));
    try {
      for (const codec of [...deps.temporal.options.loadedDataConverter.payloadCodecs].reverse()) payloads = await codec.decode(payloads);
    } catch (err) {
      throw new DashboardError(422, `A payload could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
    }
    return c.json({
      payloads: payloads.map((p) => ({
        metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])),
        data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
      })),
    });
  });
  return app;
}
