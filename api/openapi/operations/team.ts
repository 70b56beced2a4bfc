/** The team, its physicians and source priorities; providers; insurance search and payors. */
import { z } from 'zod';
import { clientFacingUser } from '../../routes/users/schemas.js';
import { teamIdParam } from '../../routes/team/index.js';
import { prioritiesQuery, searchQuery } from '../../routes/team/surface.js';
import { providersQuery } from '../../routes/link/schemas.js';
import { createPayorBody, diagnosisQuery, payorSearchBody, payorSearchQuery, validateIcdCodesBody } from '../../routes/insurance/schemas.js';
import * as res from '../responses/team.js';
import { json, named, type Operation } from '../spec.js';

const payor = named('ClientFacingPayorSearchResponse', res.payor);

export const teamOperations: Operation[] = [
  { method: 'GET', path: '/v2/team/{team_id}', tag: 'Team', summary: 'The team (the key’s own)', auth: 'team', params: teamIdParam, responses: { 200: json(res.team) } },
  { method: 'GET', path: '/v2/team/{team_id}/physicians', tag: 'Team', summary: 'Physicians on the team’s orders', auth: 'team', params: teamIdParam, responses: { 200: json(res.physicians) } },
  { method: 'GET', path: '/v2/team/users/search', tag: 'Team', summary: 'Find users by id or client user id', auth: 'team', query: searchQuery, responses: { 200: json(z.array(clientFacingUser)) } },
  { method: 'GET', path: '/v2/team/source/priorities', tag: 'Team', summary: 'Source priorities by data type', auth: 'team', query: prioritiesQuery, responses: { 200: json(res.sourcePriorities) } },
  { method: 'PATCH', path: '/v2/team/source/priorities', tag: 'Team', summary: 'Source priorities (fixed here: answers them unchanged)', auth: 'team', responses: { 200: json(res.sourcePriorities) } },
  { method: 'GET', path: '/v2/providers', tag: 'Providers', summary: 'Every data source a user can connect', auth: 'team', query: providersQuery, responses: { 200: json(z.array(res.providerDetailed)) } },
  { method: 'GET', path: '/v3/insurance/search/payor', tag: 'Insurance', summary: 'Search payors', auth: 'team', query: payorSearchQuery, responses: { 200: json(z.array(res.payor)) } },
  { method: 'POST', path: '/v3/insurance/search/payor', tag: 'Insurance', summary: 'Search payors (deprecated form)', auth: 'team', body: { json: payorSearchBody }, responses: { 200: json(z.array(res.payorByCode)) }, deprecated: true },
  { method: 'GET', path: '/v3/insurance/search/diagnosis', tag: 'Insurance', summary: 'Search ICD-10 diagnoses', auth: 'team', query: diagnosisQuery, responses: { 200: json(res.diagnoses) } },
  { method: 'POST', path: '/v3/insurance/validate_icd_codes', tag: 'Insurance', summary: 'Check ICD-10 codes', auth: 'team', body: { json: validateIcdCodesBody }, responses: { 200: json(res.icdValidation) } },
  { method: 'POST', path: '/v3/payor', tag: 'Insurance', summary: 'Add a payor of the team', auth: 'team', body: { json: createPayorBody }, responses: { 200: json(payor) } },
];
