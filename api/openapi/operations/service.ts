/** Health, metrics, the API document itself, the user portal pages, and the partner API (couriers, labs). */
import { z } from 'zod';
import { params as portalParams, signInQuery } from '../../routes/portal/index.js';
import {
  acceptedResponse, appointmentBody, failureBody, orderIdParam, resultsBody, sampleIdParam, sampleReceivedBody, shipmentBody,
} from '../../routes/partner/schemas.js';
import { html, json, redirect, type Operation } from '../spec.js';

const health = z.object({ status: z.enum(['ok', 'unavailable']), checks: z.record(z.string(), z.string()), detail: z.string().optional() });
const signedQuery = z.object({ expires: z.string(), signature: z.string() });

/** What each partner report carries; `sample_received` may come without a body. */
const REPORTS = [
  ['shipment', shipmentBody, 'A courier’s shipment event'],
  ['sample_received', sampleReceivedBody, 'The lab received the sample'],
  ['results', resultsBody, 'Results (partial or final)'],
  ['failure', failureBody, 'The sample or delivery failed'],
  ['appointment', appointmentBody, 'An appointment’s progress'],
] as const;

export const serviceOperations: Operation[] = [
  { method: 'GET', path: '/health', tag: 'Service', summary: 'Postgres, Temporal and workers answer', auth: 'none', responses: { 200: json(health), 503: json(health) } },
  { method: 'GET', path: '/metrics', tag: 'Service', summary: 'Prometheus metrics (a bearer token when METRICS_TOKEN is set)', auth: 'none', responses: { 200: { kind: 'text', description: 'The Prometheus text format.' } } },
  { method: 'GET', path: '/openapi.json', tag: 'Service', summary: 'This document', auth: 'none', responses: { 200: json(z.looseObject({ openapi: z.string() })) } },
  { method: 'GET', path: '/docs', tag: 'Service', summary: 'The interactive reference page of this document', auth: 'none', responses: { 200: html } },
  { method: 'GET', path: '/docs/swagger-ui.css', tag: 'Service', summary: 'The reference page’s style sheet', auth: 'none', responses: { 200: { kind: 'css' } } },
  { method: 'GET', path: '/docs/swagger-ui-bundle.js', tag: 'Service', summary: 'The reference page’s script (Swagger UI)', auth: 'none', responses: { 200: { kind: 'javascript' } } },
  { method: 'GET', path: '/docs/init.js', tag: 'Service', summary: 'Starts the reference page on /openapi.json', auth: 'none', responses: { 200: { kind: 'javascript' } } },
  { method: 'GET', path: '/portal/users/{user_id}', tag: 'Portal', summary: 'The user portal (signed link)', auth: 'none', params: portalParams.pick({ user_id: true }), query: signedQuery, responses: { 200: html } },
  { method: 'GET', path: '/portal/users/{user_id}/orders/{order_id}', tag: 'Portal', summary: 'One order in the user portal (signed link)', auth: 'none', params: portalParams.required(), query: signedQuery, responses: { 200: html } },
  { method: 'GET', path: '/portal/sign-in', tag: 'Portal', summary: 'Exchange a sign-in token for a portal link', auth: 'none', query: signInQuery, responses: { 303: redirect } },
  ...REPORTS.flatMap(([what, body, summary]): Operation[] =>
    [['orders', 'order_id', orderIdParam], ['samples', 'sample_id', sampleIdParam]].map(([by, param, schema]) => ({
      method: 'POST', path: `/partner/v1/${by as string}/{${param as string}}/${what}`, tag: 'Partner API', summary: `${summary} (by ${by === 'orders' ? 'order id' : 'sample id'})`,
      auth: 'partner', params: schema as z.ZodObject, body: { json: body, required: what !== 'sample_received' }, responses: { 202: json(acceptedResponse) },
    })),
  ),
];
