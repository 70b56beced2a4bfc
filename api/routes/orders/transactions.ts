import { Hono } from 'hono';
import { z } from 'zod';
import { orderTransactionView } from '../../../db/queries/order-transactions.js';
import type { AppEnv } from '../../env.js';
import { notFound } from '../../errors.js';
import { parse } from '../../validation.js';
import type { OrdersDeps } from './deps.js';

export const transactionIdParam = z.object({ transaction_id: z.string().uuid('transaction_id must be a UUID') });

/** GET /v3/order_transaction/{id}: an initial order with its redraws (D:/lab/workflow/order-transactions). */
export function orderTransactionsRoutes(deps: OrdersDeps) {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/order_transaction/:transaction_id', async (c) => {
    const { transaction_id } = parse(transactionIdParam, c.req.param(), 'path');
    const view = await orderTransactionView(deps.db, c.get('teamId'), transaction_id);
    if (!view) throw notFound('Order transaction not found');
    return c.json(view);
  });
  return app;
}
