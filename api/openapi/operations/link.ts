/** Link: tokens and codes (team key), the widget's calls (link token), bulk operations, the sandbox consent page. */
import { type z } from 'zod';
import {
  beginLinkBody, bulkExportBody, bulkImportBody, bulkOpsQuery, bulkPauseBody, bulkTriggerBody, codeCreateQuery, demoBody, deprecatedEmailAuthBody,
  deprecatedPasswordAuthBody, emailBody, emailProviderParam, linkTokenBody, manualBody, manualProviderParam, mfaBody, oauthProviderParam, passwordBody,
  passwordProviderParam, teamIdQuery, tokenValidationBody,
} from '../../routes/link/schemas.js';
import { decisionQuery, pageQuery, providerParam } from '../../routes/link/oauth-sandbox.js';
import * as res from '../responses/link.js';
import { html, json, named, redirect, type Operation } from '../spec.js';

const providerLink = json(named('ProviderLinkResponse', res.providerLinkResponse), 'The attempt’s outcome: `state` is `success`, `pending_provider_mfa` or `error` (also for a bad link token).');
const tag = 'Link';
/** A bulk operation answers 200 when done, 202 while it runs on (or when not waited for). */
const bulk = (schema: z.ZodType) => ({ 200: json(schema), 202: json(schema) });

export const linkOperations: Operation[] = [
  { method: 'POST', path: '/v2/link/token', tag, summary: 'A link token for a user', auth: 'team', body: { json: linkTokenBody }, responses: { 200: json(res.linkToken) } },
  { method: 'POST', path: '/v2/link/token/isValid', tag, summary: 'Is a link token usable', auth: 'team', body: { json: tokenValidationBody }, responses: { 200: json(res.linkTokenValidity) } },
  { method: 'POST', path: '/v2/link/start', tag, summary: 'Begin linking a provider', auth: 'team', body: { json: beginLinkBody }, responses: { 200: json(res.linkStart) } },
  { method: 'POST', path: '/v2/link/code/create', tag, summary: 'A one-time link code', auth: 'team', query: codeCreateQuery, responses: { 200: json(res.linkCode) } },
  { method: 'POST', path: '/v2/link/connect/demo', tag, summary: 'A demo connection (sandbox)', auth: 'team', body: { json: demoBody }, responses: { 200: json(res.linkSuccess) } },
  { method: 'POST', path: '/v2/link/provider/manual/{provider}', tag, summary: 'Connect a manual provider', auth: 'team', params: manualProviderParam, body: { json: manualBody }, responses: { 200: json(res.linkSuccess) } },
  { method: 'POST', path: '/v2/link/provider/password/{provider}', tag, summary: 'Connect a password provider', auth: 'link', params: passwordProviderParam, body: { json: passwordBody }, responses: { 200: providerLink } },
  { method: 'POST', path: '/v2/link/provider/password/{provider}/complete_mfa', tag, summary: 'Complete a provider’s MFA', auth: 'link', params: passwordProviderParam, body: { json: mfaBody }, responses: { 200: providerLink } },
  { method: 'POST', path: '/v2/link/auth', tag, summary: 'Connect a password provider (deprecated form)', auth: 'link', body: { json: deprecatedPasswordAuthBody }, responses: { 200: providerLink }, deprecated: true },
  { method: 'POST', path: '/v2/link/provider/email/{provider}', tag, summary: 'Connect an email provider', auth: 'link', params: emailProviderParam, body: { json: emailBody }, responses: { 200: providerLink } },
  { method: 'POST', path: '/v2/link/auth/email', tag, summary: 'Connect an email provider (deprecated form)', auth: 'link', body: { json: deprecatedEmailAuthBody }, responses: { 200: providerLink }, deprecated: true },
  { method: 'GET', path: '/v2/link/state', tag, summary: 'The link token’s state', auth: 'link', responses: { 200: json(res.linkState) } },
  { method: 'GET', path: '/v2/link/providers', tag, summary: 'The providers the link token may connect', auth: 'link', responses: { 200: json(res.linkProviders) } },
  { method: 'GET', path: '/v2/link/provider/oauth/{oauth_provider}', tag, summary: 'An OAuth provider’s consent URL', auth: 'link', params: oauthProviderParam, responses: { 200: json(res.oauthProvider) } },
  { method: 'GET', path: '/v2/team/link/config', tag, summary: 'The team’s Link settings', auth: 'link', responses: { 200: json(res.linkConfig) } },
  { method: 'GET', path: '/v2/link/bulk_op', tag, summary: 'Bulk operations, a page at a time', auth: 'team', query: bulkOpsQuery, responses: { 200: json(res.bulkOps) } },
  { method: 'POST', path: '/v2/link/bulk_import', tag, summary: 'Import connections', auth: 'team', query: teamIdQuery, body: { json: bulkImportBody }, responses: bulk(res.bulkImport) },
  { method: 'POST', path: '/v2/link/bulk_trigger_historical_pull', tag, summary: 'Start historical pulls', auth: 'team', query: teamIdQuery, body: { json: bulkTriggerBody }, responses: bulk(res.bulkTrigger) },
  { method: 'POST', path: '/v2/link/bulk_pause', tag, summary: 'Pause connections', auth: 'team', query: teamIdQuery, body: { json: bulkPauseBody }, responses: { 200: json(res.bulkPause) } },
  { method: 'POST', path: '/v2/link/bulk_export', tag, summary: 'Export connections', auth: 'team', query: teamIdQuery, body: { json: bulkExportBody }, responses: { 200: json(res.bulkExport) } },
  { method: 'GET', path: '/link/oauth/sandbox/{provider}', tag, summary: 'The sandbox OAuth consent page', auth: 'none', params: providerParam, query: pageQuery, responses: { 200: html } },
  {
    method: 'POST', path: '/link/oauth/sandbox/{provider}', tag, summary: 'Allow or deny on the sandbox consent page', auth: 'none', params: providerParam, query: decisionQuery,
    responses: { 200: json(res.sandboxDecision), 307: redirect },
  },
];
