import { Hono, type Context } from 'hono';
import type { Db } from '../../../db/client.js';
import type { UrlSignerSource } from '../../../db/queries/order-view.js';
import { findOrderForSignedLink, loadOrderPaperwork, loadRequisitionInput } from '../../../db/queries/order-documents.js';
import { findOrder, findResults, type OrderRow } from '../../../db/queries/orders.js';
import { buildRequisition, requisitionDocumentPath } from '../../../domain/orders/requisition.js';
import { renderRequisitionPdf } from '../../../lib/pdf/requisition-pdf.js';
import { renderResultsPdf } from '../../../lib/pdf/results-pdf.js';
import { renderAbnPdf } from '../../../lib/pdf/abn-pdf.js';
import { renderCollectionInstructionsPdf } from '../../../lib/pdf/collection-instructions-pdf.js';
import { renderLabelsPdf } from '../../../lib/pdf/labels-pdf.js';
import { orderHasAbn } from '../../../domain/insurance/abn.js';
import type { AppEnv } from '../../env.js';
import { HttpError, notFound } from '../../errors.js';
import { parse, parseQuery } from '../../validation.js';
import { z } from 'zod';
import { THIS_ORDER_MISSING } from './responses.js';
import { orderIdParam } from './schemas.js';

export const labelsQuery = z.object({
  number_of_labels: z.coerce.number().int().min(1).max(50).default(3),
  collection_date: z.iso.datetime({ offset: true, local: true, message: 'collection_date must be an ISO 8601 date-time' }),
});


/** A PDF answer; documents carry patient data, so nothing on the way may keep a copy. */
function pdf(c: Context<AppEnv>, bytes: Buffer, filename: string): Response {
  return c.body(Uint8Array.from(bytes), 200, {
    'content-type': 'application/pdf',
    'content-disposition': `inline; filename="${filename}"`,
    'cache-control': 'no-store',
  });
}

async function requisitionPdf(c: Context<AppEnv>, db: Db, order: OrderRow): Promise<Response> {
  const input = await loadRequisitionInput(db, order);
  if (!input) throw notFound(`Requisition is not available for order - ${order.id}. It exists once the order reaches requisition_created.`);
  return pdf(c, await renderRequisitionPdf(buildRequisition(input), order.id), `requisition-${order.id}.pdf`);
}

/**
 * Order documents under /v3 (team key): GET /v3/order/{id}/requisition/pdf, /result, /result/metadata,
 * /result/pdf, /labels/pdf, /abn_pdf, /collection_instruction_pdf (CONTRACT §4, §5). Another team's order is a 404 like an unknown one.
 */
export function orderDocumentsRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  async function teamOrder(c: Context<AppEnv>): Promise<OrderRow> {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const order = await findOrder(db, c.get('teamId'), order_id);
    if (!order) throw notFound(THIS_ORDER_MISSING);
    return order;
  }

  async function results(c: Context<AppEnv>) {
    const order = await teamOrder(c);
    const stored = await findResults(db, order.id);
    if (!stored) throw notFound(`Results are not available for order - ${order.id}. Did you receive a webhook for this order?`);
    return { order, stored };
  }

  /** The team's order; an unknown or another team's order is the same 404. */
  async function ownOrder(c: Context<AppEnv>): Promise<OrderRow> {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const order = await findOrder(db, c.get('teamId'), order_id);
    if (!order) throw notFound(THIS_ORDER_MISSING);
    return order;
  }

  // Specimen labels (labTests.getLabelsPdf): `collection_date` (required) and `number_of_labels` (1–50, default 3).
  app.get('/order/:order_id/labels/pdf', async (c) => {
    const order = await ownOrder(c);
    const q = parseQuery(c, labelsQuery);
    if (!order.sampleId) throw notFound(`Order ${order.id} has no sample id yet.`);
    const paper = await loadOrderPaperwork(db, order);
    const bytes = await renderLabelsPdf(
      { orderId: order.id, sampleId: order.sampleId, patientName: paper.patientName, dob: paper.dob, collectedAt: new Date(q.collection_date), labName: paper.test.labName },
      q.number_of_labels,
    );
    return pdf(c, bytes, `labels-${order.id}.pdf`);
  });

  // Advance Beneficiary Notice (labTests.getOrderAbnPdf): only orders billed to a Medicare plan have one.
  app.get('/order/:order_id/abn_pdf', async (c) => {
    const order = await ownOrder(c);
    const paper = await loadOrderPaperwork(db, order);
    if (!orderHasAbn({ billingType: order.billingType, payorCode: paper.payorCode })) {
      throw notFound(`Order ${order.id} has no ABN: only orders billed to a Medicare plan need one.`);
    }
    const bytes = await renderAbnPdf({
      orderId: order.id,
      patientName: paper.patientName,
      payorName: paper.payor?.name ?? paper.payorCode ?? '—',
      items: [{ name: `${paper.test.name} (${paper.test.markers.join(', ') || 'no markers'})`, price: `$${paper.test.price.toFixed(2)}` }],
      reason: 'Medicare pays for laboratory tests only when they are medically necessary for the diagnoses given, and only at the frequency its coverage rules allow.',
    });
    return pdf(c, bytes, `abn-${order.id}.pdf`);
  });

  // Patient instructions for collecting the sample (labTests.getOrderCollectionInstructionPdf).
  app.get('/order/:order_id/collection_instruction_pdf', async (c) => {
    const order = await ownOrder(c);
    const paper = await loadOrderPaperwork(db, order);
    const bytes = await renderCollectionInstructionsPdf({
      orderId: order.id,
      sampleId: order.sampleId,
      method: order.method,
      labTestName: paper.test.name,
      labName: paper.test.labName,
      sampleType: paper.test.sampleType,
      fasting: paper.test.fasting,
    });
    return pdf(c, bytes, `collection-instructions-${order.id}.pdf`);
  });

  app.get('/order/:order_id/requisition/pdf', async (c) => requisitionPdf(c, db, await teamOrder(c)));

  // LabResultsRaw: partial results are served as soon as the lab reports them, final ones replace them.
  app.get('/order/:order_id/result', async (c) => {
    const { stored } = await results(c);
    return c.json({ metadata: stored.metadata, results: stored.results, missing_results: stored.missingResults });
  });

  app.get('/order/:order_id/result/metadata', async (c) => c.json((await results(c)).stored.metadata));

  app.get('/order/:order_id/result/pdf', async (c) => {
    const { order, stored } = await results(c);
    const bytes = await renderResultsPdf({
      orderId: order.id,
      status: stored.status,
      interpretation: stored.interpretation,
      metadata: stored.metadata,
      results: stored.results,
      missingResults: stored.missingResults,
    });
    return pdf(c, bytes, `results-${order.id}.pdf`);
  });

  return app;
}

/**
 * Signed document links (mounted at /documents, outside team auth): the `requisition_form_url` of an
 * order. The signature over the path and expiry is the credential; a changed or expired link is a 403.
 */
export function signedDocumentsRoutes({ db, urlSigner }: { db: Db; urlSigner: UrlSignerSource }) {
  const app = new Hono<AppEnv>({ strict: false });

  app.get('/orders/:order_id/requisition.pdf', async (c) => {
    const { order_id } = parse(orderIdParam, c.req.param(), 'path');
    const signer = await urlSigner();
    const check = signer.verify(requisitionDocumentPath(order_id), { expires: c.req.query('expires'), signature: c.req.query('signature') });
    if (check === 'expired') throw new HttpError(403, 'This link has expired; fetch the order again for a new requisition_form_url');
    if (check !== 'valid') throw new HttpError(403, 'Invalid link signature');
    const order = await findOrderForSignedLink(db, order_id);
    if (!order) throw notFound('Order not found');
    return requisitionPdf(c, db, order);
  });

  return app;
}
