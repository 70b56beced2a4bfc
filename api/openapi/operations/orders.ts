/** Lab orders: create, read, list, cancel, simulate, documents, results, transactions, import. */
import { z } from 'zod';
import * as res from '../../routes/orders/responses.js';
import { createOrderBody, createTestkitOrderBody, listOrdersQuery, orderIdParam, registerTestkitBody, simulateQuery, simulationFlags } from '../../routes/orders/schemas.js';
import { labelsQuery } from '../../routes/orders/documents.js';
import { importOrderBody } from '../../routes/orders/import.js';
import { transactionIdParam } from '../../routes/orders/transactions.js';
import * as ext from '../responses/extensions.js';
import { json, named, pdf, type Operation } from '../spec.js';

const order = named('ClientFacingOrder', ext.order);
const postOrder = json(named('PostOrderResponse', ext.postOrder));
const tag = 'Orders';

/** The stored result of an order (CONTRACT §4 LabResultsRaw): metadata as the lab sent it, results, missing results. */
const resultMetadata = z.looseObject({});
const labResults = z.object({ metadata: resultMetadata, results: z.array(z.looseObject({})), missing_results: z.array(z.looseObject({})).nullish() });

export const orderOperations: Operation[] = [
  { method: 'POST', path: '/v3/order/testkit', tag, summary: 'Order a test kit', auth: 'team', body: { json: createTestkitOrderBody }, responses: { 200: postOrder } },
  { method: 'POST', path: '/v3/order', tag, summary: 'Create an order', auth: 'team', body: { json: createOrderBody }, responses: { 200: postOrder } },
  { method: 'POST', path: '/v3/order/create', tag, summary: 'Create an order (the older path)', auth: 'team', body: { json: createOrderBody }, responses: { 200: postOrder } },
  { method: 'POST', path: '/v3/order/testkit/register', tag, summary: 'Register a test kit to a user', auth: 'team', body: { json: registerTestkitBody }, responses: { 200: postOrder } },
  { method: 'POST', path: '/v3/order/import', tag, summary: 'Import an order placed outside this service', auth: 'team', body: { json: importOrderBody }, responses: { 200: postOrder } },
  { method: 'GET', path: '/v3/orders', tag, summary: 'List the team’s orders', auth: 'team', query: listOrdersQuery, responses: { 200: json(named('GetOrdersResponse', ext.orders)) } },
  { method: 'GET', path: '/v3/order/{order_id}', tag, summary: 'Read an order', auth: 'team', params: orderIdParam, responses: { 200: json(order) } },
  { method: 'POST', path: '/v3/order/{order_id}/cancel', tag, summary: 'Cancel an order', auth: 'team', params: orderIdParam, responses: { 200: postOrder } },
  { method: 'PATCH', path: '/v3/order/{order_id}/draw_completed', tag, summary: 'Mark an at-home draw completed', auth: 'team', params: orderIdParam, responses: { 200: postOrder } },
  {
    method: 'POST', path: '/v3/order/{order_id}/test', tag, summary: 'Simulate the order’s progress (sandbox)', auth: 'team', params: orderIdParam, query: simulateQuery,
    body: { json: simulationFlags, required: false }, responses: { 200: json(z.literal('Success')) },
  },
  { method: 'GET', path: '/v3/order/{order_id}/requisition/pdf', tag, summary: 'The requisition form', auth: 'team', params: orderIdParam, responses: { 200: pdf } },
  { method: 'GET', path: '/v3/order/{order_id}/labels/pdf', tag, summary: 'Sample labels', auth: 'team', params: orderIdParam, query: labelsQuery, responses: { 200: pdf } },
  { method: 'GET', path: '/v3/order/{order_id}/abn_pdf', tag, summary: 'The Advance Beneficiary Notice', auth: 'team', params: orderIdParam, responses: { 200: pdf } },
  { method: 'GET', path: '/v3/order/{order_id}/collection_instruction_pdf', tag, summary: 'Collection instructions', auth: 'team', params: orderIdParam, responses: { 200: pdf } },
  { method: 'GET', path: '/v3/order/{order_id}/result', tag, summary: 'The order’s results', auth: 'team', params: orderIdParam, responses: { 200: json(named('LabResultsRaw', labResults)) } },
  { method: 'GET', path: '/v3/order/{order_id}/result/metadata', tag, summary: 'The results’ metadata', auth: 'team', params: orderIdParam, responses: { 200: json(resultMetadata) } },
  { method: 'GET', path: '/v3/order/{order_id}/result/pdf', tag, summary: 'The results as a PDF', auth: 'team', params: orderIdParam, responses: { 200: pdf } },
  {
    method: 'GET', path: '/documents/orders/{order_id}/requisition.pdf', tag, summary: 'The requisition form by signed link (requisition_form_url)', auth: 'none', params: orderIdParam,
    query: z.object({ expires: z.string(), signature: z.string() }), responses: { 200: pdf },
  },
  { method: 'GET', path: '/v3/order_transaction/{transaction_id}', tag, summary: 'An order transaction (an order and its re-orders)', auth: 'team', params: transactionIdParam, responses: { 200: json(res.orderTransaction) } },
];
