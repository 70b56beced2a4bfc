/** Webhook endpoints, the event log, deliveries and resends (README "Webhooks"). */
import * as res from '../../routes/webhooks/responses.js';
import { resendWebhookResponse } from '../../routes/orders/responses.js';
import { createEndpointBody, idParam, listEventsQuery, patchEndpointBody, recoverBody, resendEventBody, resendOrderEventsBody } from '../../routes/webhooks/schemas.js';
import { json, named, type Operation } from '../spec.js';

const endpoint = json(named('WebhookEndpoint', res.webhookEndpoint));
const tag = 'Webhooks';

export const webhookOperations: Operation[] = [
  { method: 'POST', path: '/v2/webhooks/endpoints', tag, summary: 'Add an endpoint (its signing secret is in the answer)', auth: 'team', body: { json: createEndpointBody('production') }, responses: { 201: json(res.createdWebhookEndpoint) } },
  { method: 'GET', path: '/v2/webhooks/endpoints', tag, summary: 'List the team’s endpoints', auth: 'team', responses: { 200: json(res.webhookEndpointList) } },
  { method: 'GET', path: '/v2/webhooks/endpoints/{id}', tag, summary: 'Read an endpoint', auth: 'team', params: idParam, responses: { 200: endpoint } },
  { method: 'PATCH', path: '/v2/webhooks/endpoints/{id}', tag, summary: 'Change an endpoint (URL, event types, description, enabled)', auth: 'team', params: idParam, body: { json: patchEndpointBody('production') }, responses: { 200: endpoint } },
  { method: 'DELETE', path: '/v2/webhooks/endpoints/{id}', tag, summary: 'Remove an endpoint', auth: 'team', params: idParam, responses: { 200: json(res.deletedWebhookEndpoint) } },
  { method: 'GET', path: '/v2/webhooks/endpoints/{id}/secret', tag, summary: 'The endpoint’s signing secret', auth: 'team', params: idParam, responses: { 200: json(res.webhookEndpointSecret) } },
  { method: 'POST', path: '/v2/webhooks/endpoints/{id}/rotate_secret', tag, summary: 'Rotate the signing secret (the old one stays valid for a while)', auth: 'team', params: idParam, responses: { 200: json(res.rotatedWebhookSecret) } },
  { method: 'POST', path: '/v2/webhooks/endpoints/{id}/recover', tag, summary: 'Re-enable an endpoint and requeue its failed deliveries since a time', auth: 'team', params: idParam, body: { json: recoverBody }, responses: { 200: json(res.recoveredWebhookEndpoint) } },
  { method: 'GET', path: '/v2/webhooks/events', tag, summary: 'The event log', auth: 'team', query: listEventsQuery, responses: { 200: json(res.webhookEventList) } },
  { method: 'GET', path: '/v2/webhooks/events/{id}', tag, summary: 'An event and its deliveries', auth: 'team', params: idParam, responses: { 200: json(named('WebhookEvent', res.webhookEvent)) } },
  { method: 'POST', path: '/v2/webhooks/events/{id}/resend', tag, summary: 'Deliver an event again', auth: 'team', params: idParam, body: { json: resendEventBody, required: false }, responses: { 202: json(res.resentWebhookEvent) } },
  { method: 'POST', path: '/v3/order/resend_events', tag, summary: 'Deliver orders’ latest events again', auth: 'team', body: { json: resendOrderEventsBody }, responses: { 200: json(resendWebhookResponse) } },
  { method: 'GET', path: '/v2/team/svix/url', tag, summary: 'Where the team sees its webhooks (the dashboard)', auth: 'team', responses: { 200: json(res.svixUrl) } },
];
