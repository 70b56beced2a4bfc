/**
 * The keys labflow sends beyond the hosted service's wire shapes (api/routes/<domain>/responses.ts
 * hold those, and tests compare them with recorded hosted bodies): the document lists both, so an
 * answer with a key the document does not name fails its check (objects are closed in the document).
 */
import { z } from 'zod';
import { clientFacingOrder, getOrdersResponse, postOrderResponse } from '../../routes/orders/responses.js';
import { labReportResult, parsedLabReportData, parsingJob } from '../../routes/lab-reports/responses.js';

/** An order, with the clinical notes it was placed with (POST /v3/order `clinical_notes`). */
export const order = clientFacingOrder.extend({ clinical_notes: z.string().nullable() });
export const postOrder = postOrderResponse.extend({ order });
export const orders = getOrdersResponse.extend({ orders: z.array(order) });

/** A parsed result, with where it was read (page) and the reference range and flag as printed. */
export const parsedResult = labReportResult.extend({
  page: z.number().int().nullish(),
  reference_range_text: z.string().nullish(),
  flag: z.string().nullish(),
});
export const job = parsingJob.extend({ data: parsedLabReportData.extend({ results: z.array(parsedResult) }).nullable() });
