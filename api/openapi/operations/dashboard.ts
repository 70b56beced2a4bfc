/**
 * The operations dashboard (api/dashboard): server-rendered pages for operators with a session cookie.
 * Pages answer HTML; form posts answer a redirect (303) or the page again; errors are HTML pages, or
 * `{detail}` JSON to a client that does not ask for HTML.
 */
import { z } from 'zod';
import { codecBody } from '../../dashboard/codec.js';
import { query as overviewQuery } from '../../dashboard/overview.js';
import { query as workflowsQuery } from '../../dashboard/workflows.js';
import { newTeamForm } from '../../dashboard/teams.js';
import { deliveryLogQuery, orderSearchQuery, replayFilter } from '../../dashboard/params.js';
import { html, json, redirect, type Answer, type Method, type Operation } from '../spec.js';

const id = { id: z.uuid() };
const csrf = z.object({ _csrf: z.string() });
/** A browser without a session is sent to the login page (303) from every page. */
const page = { 200: html, 303: redirect };
const post = { 200: html, 303: redirect };
const payloads = z.object({ payloads: z.array(z.object({ metadata: z.record(z.string(), z.string()), data: z.string() })) });

function op(method: Method, path: string, summary: string, more: Partial<Operation> & { responses?: Record<string, Answer> } = {}): Operation {
  return { method, path, tag: 'Dashboard', summary, auth: 'session', htmlErrors: true, responses: method === 'GET' ? page : post, ...more };
}

export const dashboardOperations: Operation[] = [
  op('GET', '/dashboard/static/htmx.min.js', 'The htmx script the pages use', { auth: 'none', responses: { 200: { kind: 'javascript' } } }),
  op('GET', '/dashboard/login', 'The sign-in page', { auth: 'none', query: z.object({ next: z.string().optional() }) }),
  op('POST', '/dashboard/login', 'Sign in', { auth: 'none', body: { form: csrf.extend({ email: z.string(), password: z.string(), next: z.string().optional() }) } }),
  op('POST', '/dashboard/logout', 'Sign out', { body: { form: csrf } }),
  // JSON in and out; its errors are plain text.
  {
    method: 'POST', path: '/dashboard/codec/decode', tag: 'Dashboard', summary: 'Decode Temporal payloads (the Temporal UI’s remote codec)', auth: 'session',
    body: { json: codecBody }, responses: { 200: json(payloads) }, htmlErrors: true,
  },
  op('GET', '/dashboard', 'To the orders page', { responses: { 303: redirect } }),
  op('GET', '/dashboard/orders', 'Orders, searchable', { query: orderSearchQuery }),
  op('GET', '/dashboard/orders/{id}', 'An order: timeline, events, workflow', { params: id }),
  op('GET', '/dashboard/orders/{id}/confirm/{action}', 'Confirm an action on an order', { params: { ...id, action: z.string() } }),
  op('POST', '/dashboard/orders/{id}/{action}', 'Act on an order (cancel, resend an event…)', { params: { ...id, action: z.string() }, body: { form: csrf.extend({ event_id: z.uuid().optional() }) } }),
  op('GET', '/dashboard/parsing', 'Parsing jobs'),
  op('GET', '/dashboard/parsing/{id}', 'A parsing job and its review', { params: id }),
  op('GET', '/dashboard/parsing/{id}/file/{n}', 'A parsing job’s uploaded file', { params: { ...id, n: z.string() }, responses: { 200: { kind: 'pdf', description: 'The file as uploaded (PDF or image).' } } }),
  op('GET', '/dashboard/parsing/{id}/pdf-page/{page}', 'A page of the uploaded PDF, as an image', { params: { ...id, page: z.string() }, responses: { 200: { kind: 'pdf', description: 'A PNG image of the page.' } } }),
  op('POST', '/dashboard/parsing/{id}/review', 'Approve or correct a parsing job', { params: id, body: { form: csrf.extend({ decision: z.enum(['approve', 'reject']) }).catchall(z.string()) } }),
  op('GET', '/dashboard/workflows', 'Workflows by type and status', { query: workflowsQuery }),
  op('GET', '/dashboard/overview', 'Counts and latencies', { query: overviewQuery }),
  op('GET', '/dashboard/teams', 'Teams and partner keys'),
  op('POST', '/dashboard/teams', 'Create a team', { body: { form: csrf.extend(newTeamForm.shape) } }),
  op('GET', '/dashboard/teams/{id}/confirm-rotate', 'Confirm rotating a team’s key', { params: id }),
  op('POST', '/dashboard/teams/{id}/rotate-key', 'Rotate a team’s key', { params: id, body: { form: csrf } }),
  op('POST', '/dashboard/partner-keys', 'Create a partner key', { body: { form: csrf.extend({ name: z.string(), kind: z.string(), lab_slug: z.string().optional() }) } }),
  op('GET', '/dashboard/partner-keys/{id}/confirm-revoke', 'Confirm revoking a partner key', { params: id }),
  op('POST', '/dashboard/partner-keys/{id}/revoke', 'Revoke a partner key', { params: id, body: { form: csrf } }),
  op('GET', '/dashboard/webhooks', 'Webhook deliveries', { query: deliveryLogQuery }),
  op('POST', '/dashboard/webhooks/endpoints/{id}/enable', 'Re-enable an endpoint', { params: id, body: { form: csrf } }),
  op('POST', '/dashboard/webhooks/endpoints/{id}/recover', 'Recover an endpoint’s failed deliveries', { params: id, body: { form: csrf.extend({ since: z.string() }) } }),
  op('POST', '/dashboard/webhooks/events/{id}/resend', 'Deliver an event again', { params: id, body: { form: csrf } }),
  op('GET', '/dashboard/webhooks/replay', 'Preview a replay of events', { query: replayFilter }),
  op('POST', '/dashboard/webhooks/replay', 'Replay events', { body: { form: csrf.extend(replayFilter.shape) } }),
  op('GET', '/dashboard/audit', 'The operators’ audit log'),
];
