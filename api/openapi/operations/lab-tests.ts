/** The lab catalogue: labs, lab tests, markers, collection instructions, lab accounts. */
import { z } from 'zod';
import * as res from '../../routes/lab-tests/responses.js';
import {
  createLabTestBody, labAccountQuery, labAndProviderParam, labTestIdParam, labTestMarkersQuery, listLabTestsQuery, listMarkersQuery, orderSetBody,
  pageOnlyQuery, paginatedLabTestsQuery, updateLabTestBody,
} from '../../routes/lab-tests/schemas.js';
import { listQuery as labAccountsQuery } from '../../routes/lab-accounts/index.js';
import { labAccount } from '../responses/lab-accounts.js';
import { json, named, pdf, type Operation } from '../spec.js';

const labTest = json(named('ClientFacingLabTest', res.clientFacingLabTest));
const markers = json(named('GetMarkersResponse', res.getMarkersResponse));
const tag = 'Lab tests';

export const labTestOperations: Operation[] = [
  { method: 'GET', path: '/v3/lab_tests/labs', tag, summary: 'The labs', auth: 'team', responses: { 200: json(z.array(res.clientFacingLab)) } },
  { method: 'GET', path: '/v3/lab_test', tag, summary: 'Lab tests, a page at a time', auth: 'team', query: paginatedLabTestsQuery, responses: { 200: json(res.labTestResourcesResponse) } },
  { method: 'GET', path: '/v3/lab_tests', tag, summary: 'Every lab test the team can order', auth: 'team', query: listLabTestsQuery, responses: { 200: json(z.array(res.clientFacingLabTest)) } },
  { method: 'POST', path: '/v3/lab_tests', tag, summary: 'Create a lab test of the team', auth: 'team', body: { json: createLabTestBody }, responses: { 200: labTest } },
  { method: 'GET', path: '/v3/lab_tests/{lab_test_id}', tag, summary: 'Read a lab test', auth: 'team', params: labTestIdParam, query: labAccountQuery, responses: { 200: labTest } },
  { method: 'PATCH', path: '/v3/lab_tests/{lab_test_id}', tag, summary: 'Change a lab test of the team', auth: 'team', params: labTestIdParam, body: { json: updateLabTestBody }, responses: { 200: labTest } },
  { method: 'GET', path: '/v3/lab_tests/markers', tag, summary: 'Markers, a page at a time', auth: 'team', query: listMarkersQuery, responses: { 200: markers } },
  { method: 'GET', path: '/v3/lab_tests/{lab_test_id}/markers', tag, summary: 'A lab test’s markers', auth: 'team', params: labTestIdParam, query: labTestMarkersQuery, responses: { 200: markers } },
  {
    method: 'GET', path: '/v3/lab_tests/{lab_id}/markers/{provider_id}', tag, summary: 'A marker by its lab and the lab’s own id', auth: 'team', params: labAndProviderParam, query: labAccountQuery,
    responses: { 200: json(res.clientFacingMarkerComplete) },
  },
  { method: 'POST', path: '/v3/lab_tests/list_order_set_markers', tag, summary: 'The markers of an order set', auth: 'team', query: pageOnlyQuery, body: { json: orderSetBody }, responses: { 200: markers } },
  { method: 'GET', path: '/v3/lab_test/{lab_test_id}/collection_instruction_pdf', tag, summary: 'A lab test’s collection instructions', auth: 'team', params: labTestIdParam, responses: { 200: pdf } },
  {
    method: 'GET', path: '/v3/lab_test/lab_account', tag: 'Lab accounts', summary: 'The lab accounts the team orders with', auth: 'team', query: labAccountsQuery,
    responses: { 200: json(z.object({ data: z.array(labAccount) })) },
  },
];
