import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Hono } from 'hono';
import type { Db } from '../../../db/client.js';
import {
  deleteEndpoint,
  deliveriesOf,
  fanOutEvent,
  findEndpoint,
  findEvent,
  insertEndpoint,
  latestOrderEvents,
  listEndpoints,
  listEvents,
  requeueFailed,
  updateEndpoint,
  type EndpointRow,
  type EventRow,
} from '../../../db/queries/webhooks.js';
import { newEndpointSecret } from '../../../domain/webhooks/signing.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import { refusedEndpointUrl } from '../../../lib/ssrf.js';
import { wakeEndpoints } from '../../../lib/webhook-wake.js';
import type { AppEnv } from '../../env.js';
import { HttpError, ValidationError, notFound } from '../../errors.js';
import { clipInput, parse, parseJsonBody, parseQuery, readJson } from '../../validation.js';
import {
  createEndpointBody,
  idParam,
  listEventsQuery,
  patchEndpointBody,
  recoverBody,
  resendEventBody,
  resendOrderEventsBody,
} from './schemas.js';

export interface WebhooksDeps {
  db: Db;
  temporal: Client;
  environment: 'sandbox' | 'production';
  secretBox: () => Promise<SecretBox>;
  /** Base of the links handed out (PUBLIC_URL, else this server's port): never taken from the Host header. */
  publicUrl: string;
}

/** How long a rotated-out secret still signs deliveries. */
const PREVIOUS_SECRET_VALID_MS = 24 * 3600 * 1000;

function endpointView(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    failing_since: e.failingSince?.toISOString() ?? null,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

function eventView(e: EventRow) {
  return {
    id: e.id,
    event_type: e.eventType,
    created_at: e.createdAt.toISOString(),
    team_id: e.teamId,
    user_id: e.userId,
    client_user_id: e.clientUserId,
    subject_id: e.subjectId,
    data: e.data,
  };
}

type DeliveryWithAttempts = Awaited<ReturnType<typeof deliveriesOf>>[number];

function deliveryView(d: DeliveryWithAttempts) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    status: d.status,
    trigger: d.trigger,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    delivered_at: d.deliveredAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    attempt_log: d.attemptRows.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      response_body: a.responseBody,
      error: a.error,
    })),
  };
}

function encodeCursor(e: EventRow): string {
  return Buffer.from(`${e.createdAt.toISOString()}|${e.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  // Exactly what encodeCursor writes: an ISO instant of a plausible year and a UUID (any other is a 422, never a query).
  const createdAt = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(at ?? '') ? new Date(at!) : new Date(NaN);
  const year = createdAt.getUTCFullYear();
  if (!id || Number.isNaN(createdAt.getTime()) || year < 1900 || year > 2200 || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
    throw new ValidationError([{ loc: ['query', 'cursor'], msg: 'cursor is not one this API returned', type: 'value_error', input: clipInput(cursor) }]);
  }
  return { createdAt, id };
}

/**
 * /v2/webhooks/* (endpoints, event log, resend, recovery) and POST /v3/order/resend_events.
 * Every query is scoped to the caller's team. Changes that create work wake the endpoint's
 * delivery workflow; the delivery itself happens there.
 */
export function webhooksRoutes(deps: WebhooksDeps) {
  const { db } = deps;
  const app = new Hono<AppEnv>({ strict: false });
  const wake = (ids: string[]) => (ids.length ? wakeEndpoints(deps.temporal, ids) : Promise.resolve());

  // SSRF guard, first line (lib/ssrf.ts): literal non-public addresses and internal names are refused here;
  // every delivery checks the resolved address again. The sandbox keeps loopback for local receivers.
  const addressPolicy = { allowLoopback: deps.environment === 'sandbox' };
  function refuseInternalUrl(url: string): void {
    const refusal = refusedEndpointUrl(url, addressPolicy);
    if (refusal) throw new HttpError(422, refusal);
  }

  async function requireEndpoint(teamId: string, id: string) {
    const endpoint = await findEndpoint(db, teamId, id);
    if (!endpoint) throw notFound('Webhook endpoint not found');
    return endpoint;
  }

  app.post('/v2/webhooks/endpoints', async (c) => {
    const body = await parseJsonBody(c, createEndpointBody(deps.environment));
    refuseInternalUrl(body.url);
    const secret = newEndpointSecret();
    const box = await deps.secretBox();
    const endpoint = await insertEndpoint(db, {
      id: randomUUID(),
      teamId: c.get('teamId'),
      url: body.url,
      description: body.description,
      eventTypes: body.event_types,
      secretEnc: box.seal(secret),
    });
    c.get('log').info({ endpoint_id: endpoint.id }, 'webhook endpoint created');
    return c.json({ ...endpointView(endpoint), secret }, 201);
  });

  app.get('/v2/webhooks/endpoints', async (c) => {
    const rows = await listEndpoints(db, c.get('teamId'));
    return c.json({ data: rows.map(endpointView) });
  });

  app.get('/v2/webhooks/endpoints/:id', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    return c.json(endpointView(await requireEndpoint(c.get('teamId'), id)));
  });

  app.get('/v2/webhooks/endpoints/:id/secret', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    const endpoint = await requireEndpoint(c.get('teamId'), id);
    const box = await deps.secretBox();
    return c.json({ secret: box.open(endpoint.secretEnc) });
  });

  app.patch('/v2/webhooks/endpoints/:id', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const body = await parseJsonBody(c, patchEndpointBody(deps.environment));
    if (body.url !== undefined) refuseInternalUrl(body.url);
    const before = await requireEndpoint(teamId, id);
    const reenabled = body.enabled === true && !before.enabled;
    const updated = await updateEndpoint(db, teamId, id, {
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.event_types !== undefined ? { eventTypes: body.event_types } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      ...(body.enabled === true ? { disabledReason: null, failingSince: null } : {}),
      ...(body.enabled === false ? { disabledReason: 'disabled by the team' } : {}),
    });
    if (!updated) throw notFound('Webhook endpoint not found');
    if (reenabled) await wake([id]);
    return c.json(endpointView(updated));
  });

  app.delete('/v2/webhooks/endpoints/:id', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    if (!(await deleteEndpoint(db, c.get('teamId'), id))) throw notFound('Webhook endpoint not found');
    return c.json({ id, deleted: true });
  });

  app.post('/v2/webhooks/endpoints/:id/rotate_secret', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const endpoint = await requireEndpoint(teamId, id);
    const secret = newEndpointSecret();
    const box = await deps.secretBox();
    const expires = new Date(Date.now() + PREVIOUS_SECRET_VALID_MS);
    await updateEndpoint(db, teamId, id, {
      secretEnc: box.seal(secret),
      previousSecretEnc: endpoint.secretEnc,
      previousSecretExpiresAt: expires,
    });
    c.get('log').info({ endpoint_id: id }, 'webhook endpoint secret rotated');
    return c.json({ id, secret, previous_secret_expires_at: expires.toISOString() });
  });

  app.post('/v2/webhooks/endpoints/:id/recover', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const body = await parseJsonBody(c, recoverBody);
    const endpoint = await requireEndpoint(teamId, id);
    const requeued = await requeueFailed(db, teamId, id, body.since);
    if (requeued > 0 && endpoint.enabled) await wake([id]);
    return c.json({ endpoint_id: id, requeued, endpoint_enabled: endpoint.enabled });
  });

  app.get('/v2/webhooks/events', async (c) => {
    const q = parseQuery(c, listEventsQuery);
    const rows = await listEvents(db, c.get('teamId'), {
      eventType: q.event_type,
      since: q.since,
      until: q.until,
      orderId: q.order_id,
      userId: q.user_id,
      deliveryStatus: q.delivery_status,
      limit: q.limit + 1,
      before: q.cursor ? decodeCursor(q.cursor) : undefined,
    });
    const page = rows.slice(0, q.limit);
    const deliveries = await deliveriesOf(db, page.map((e) => e.id));
    return c.json({
      data: page.map((e) => ({
        ...eventView(e),
        deliveries: deliveries.filter((d) => d.eventId === e.id).map(({ attemptRows: _omit, ...d }) => ({
          id: d.id,
          endpoint_id: d.endpointId,
          status: d.status,
          attempts: d.attempts,
        })),
      })),
      next_cursor: rows.length > q.limit ? encodeCursor(page.at(-1)!) : null,
    });
  });

  app.get('/v2/webhooks/events/:id', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    const event = await findEvent(db, c.get('teamId'), id);
    if (!event) throw notFound('Event not found');
    const deliveries = await deliveriesOf(db, [event.id]);
    return c.json({ ...eventView(event), deliveries: deliveries.map(deliveryView) });
  });

  app.post('/v2/webhooks/events/:id/resend', async (c) => {
    const { id } = parse(idParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const text = await c.req.text();
    const body = text.trim() ? parse(resendEventBody, readJson(text), 'body') : {};
    const event = await findEvent(db, teamId, id);
    if (!event) throw notFound('Event not found');
    if (body.endpoint_id) await requireEndpoint(teamId, body.endpoint_id);
    const endpoints = await fanOutEvent(db, { id: event.id, teamId, eventType: event.eventType }, 'resend', body.endpoint_id);
    await wake(endpoints);
    return c.json({ event_id: event.id, endpoint_ids: endpoints }, 202);
  });

  // Spec: replays the latest webhook event of each chosen order (by ids and/or a ≤ 60-day window).
  app.post('/v3/order/resend_events', async (c) => {
    const body = await parseJsonBody(c, resendOrderEventsBody);
    const teamId = c.get('teamId');
    const events = await latestOrderEvents(db, teamId, {
      orderIds: body.order_ids,
      startAt: body.start_at ?? undefined,
      endAt: body.start_at ? (body.end_at ?? new Date()) : undefined,
    });
    // All of them queued or none (one transaction), then the endpoints are woken once each.
    const woken = new Set<string>();
    await db.transaction(async (tx) => {
      for (const e of events) {
        for (const endpoint of await fanOutEvent(tx, { id: e.id, teamId, eventType: e.eventType }, 'resend')) woken.add(endpoint);
      }
    });
    await wake([...woken]);
    return c.json({ order_ids: events.map((e) => e.subjectId).filter((v): v is string => v !== null) });
  });

  // Where the team manages its endpoints (the dashboard's webhooks page).
  app.get('/v2/team/svix/url', (c) => c.json({ url: `${deps.publicUrl}/dashboard/webhooks` }));

  return app;
}
