/** Users, their connections and devices, info, insurance and portal links (CONTRACT §1). */
import * as res from '../../routes/users/responses.js';
import { clientUserIdParam, listUsersQuery, undoDeleteQuery, userCreateBody, userIdParam, userPatchBody } from '../../routes/users/schemas.js';
import { deviceParam, providerParam, refreshQuery } from '../../routes/users/connections.js';
import { userInfoBody } from '../../routes/users/info.js';
import { portalBody } from '../../routes/users/portal.js';
import { createInsuranceBody, latestInsuranceQuery } from '../../routes/insurance/schemas.js';
import { z } from 'zod';
import * as more from '../responses/users.js';
import { json, named, type Operation } from '../spec.js';

const user = json(named('ClientFacingUser', res.clientFacingUser));
const success = json(named('UserSuccessResponse', res.userSuccess));
const insurance = json(named('ClientFacingInsurance', more.userInsurance));
const tag = 'Users';

export const userOperations: Operation[] = [
  { method: 'POST', path: '/v2/user', tag, summary: 'Create a user', auth: 'team', body: { json: userCreateBody }, responses: { 200: json(res.clientFacingUserKey) } },
  { method: 'GET', path: '/v2/user', tag, summary: 'List the team’s users', auth: 'team', query: listUsersQuery, responses: { 200: json(res.paginatedUsers) } },
  { method: 'GET', path: '/v2/user/{user_id}', tag, summary: 'Read a user', auth: 'team', params: userIdParam, responses: { 200: user } },
  { method: 'PATCH', path: '/v2/user/{user_id}', tag, summary: 'Change a user', auth: 'team', params: userIdParam, body: { json: userPatchBody }, responses: { 200: user } },
  { method: 'DELETE', path: '/v2/user/{user_id}', tag, summary: 'Delete a user (after a grace period)', auth: 'team', params: userIdParam, responses: { 200: success } },
  { method: 'GET', path: '/v2/user/resolve/{client_user_id}', tag, summary: 'Find a user by the team’s own id', auth: 'team', params: clientUserIdParam, responses: { 200: user } },
  { method: 'POST', path: '/v2/user/undo_delete', tag, summary: 'Undo a pending deletion', auth: 'team', query: undoDeleteQuery, responses: { 200: success } },
  { method: 'GET', path: '/v2/user/providers/{user_id}', tag, summary: 'The user’s connected providers', auth: 'team', params: userIdParam, responses: { 200: json(more.userProviders) } },
  { method: 'GET', path: '/v2/user/metrics', tag, summary: 'The team’s connection counts', auth: 'team', responses: { 200: json(more.teamConnectionMetrics) } },
  { method: 'POST', path: '/v2/user/refresh/{user_id}', tag, summary: 'Pull the user’s data now', auth: 'team', params: userIdParam, query: refreshQuery, responses: { 200: json(more.refreshResult) } },
  { method: 'GET', path: '/v2/user/{user_id}/device', tag, summary: 'The user’s devices', auth: 'team', params: userIdParam, responses: { 200: json(z.array(more.device)) } },
  { method: 'GET', path: '/v2/user/{user_id}/device/{device_id}', tag, summary: 'One device', auth: 'team', params: deviceParam, responses: { 200: json(more.device) } },
  { method: 'DELETE', path: '/v2/user/{user_id}/{provider}', tag, summary: 'Disconnect a provider', auth: 'team', params: providerParam, responses: { 200: success } },
  { method: 'PATCH', path: '/v2/user/{user_id}/info', tag, summary: 'Write the user’s personal information', auth: 'team', params: userIdParam, body: { json: userInfoBody }, responses: { 200: json(more.userInfo) } },
  { method: 'GET', path: '/v2/user/{user_id}/info/latest', tag, summary: 'The user’s personal information', auth: 'team', params: userIdParam, responses: { 200: json(more.userInfo) } },
  { method: 'POST', path: '/v2/user/{user_id}/insurance', tag, summary: 'Add an insurance', auth: 'team', params: userIdParam, body: { json: createInsuranceBody }, responses: { 200: insurance } },
  { method: 'GET', path: '/v2/user/{user_id}/insurance/latest', tag, summary: 'The latest insurance', auth: 'team', params: userIdParam, query: latestInsuranceQuery, responses: { 200: insurance } },
  { method: 'POST', path: '/v2/user/{user_id}/sign_in_token', tag, summary: 'A sign-in token for the user portal', auth: 'team', params: userIdParam, responses: { 200: json(more.signInToken) } },
  { method: 'POST', path: '/v2/user/{user_id}/create_portal_url', tag, summary: 'A signed link to the user portal', auth: 'team', params: userIdParam, body: { json: portalBody }, responses: { 200: json(more.portalUrl) } },
];
