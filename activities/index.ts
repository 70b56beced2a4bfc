import type { Db } from '../db/client.js';
import { loadLabTestViews } from '../db/queries/lab-test-view.js';
import { orderView } from '../db/queries/order-view.js';
import type { OrderPayloadBuilder } from '../db/queries/orders.js';
import type { Logger } from '../lib/logger.js';
import { createOrderActivities } from './orders/index.js';
import { createUserActivities } from './users/index.js';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
}

/** The order exactly as GET /v3/order/{id} returns it, read inside the writing transaction. */
export const buildOrderPayload: OrderPayloadBuilder = async (tx, teamId, orderId) => {
  const view = await orderView(tx, teamId, orderId, loadLabTestViews);
  if (!view) throw new Error(`order ${orderId} not found while building its event`);
  return view;
};

/** All activities, built from their dependencies; worker.ts wires the real ones, tests may override. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createUserActivities(deps),
    ...createOrderActivities({ ...deps, buildOrderPayload }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
