import { describe, expect, it } from 'vitest';
import { withAppRoutes } from '../support/app-routes.js';
import { concretePath, sdkOperations } from '../support/sdk-operations.js';

/**
 * The SDK's operations this service does not route yet, by namespace (`'all'`: the whole namespace).
 * Both directions are checked: an operation listed here that gains a route fails the test until it is
 * taken off the list, so the list (and the figure printed below) stays true.
 */
const NOT_YET_SERVED: Record<string, 'all' | string[]> = {};

const expectedUnserved = (namespace: string, method: string) => {
  const entry = NOT_YET_SERVED[namespace];
  return entry === 'all' || (entry?.includes(method) ?? false);
};

describe('SDK coverage: which @tryvital/vital-node operations the service routes', () => {
  it('reads the SDK operations from the installed SDK', () => {
    const ops = sdkOperations();
    expect(ops.length).toBeGreaterThan(150);
    expect(ops).toContainEqual({ namespace: 'user', method: 'create', httpMethod: 'POST', path: '/v2/user' });
    expect(ops).toContainEqual({ namespace: 'labTests', method: 'getOrder', httpMethod: 'GET', path: '/v3/order/{order_id}' });
  });

  it('routes every operation except the listed ones, and none of those', async () => {
    const ops = sdkOperations();
    const { missing, unexpected, served } = await withAppRoutes((isServed) => {
      const missing: string[] = [];
      const unexpected: string[] = [];
      let served = 0;
      for (const op of ops) {
        const yes = isServed(op.httpMethod, concretePath(op.path));
        if (yes) served += 1;
        const name = `${op.namespace}.${op.method} (${op.httpMethod} ${op.path})`;
        if (!yes && !expectedUnserved(op.namespace, op.method)) missing.push(name);
        if (yes && expectedUnserved(op.namespace, op.method)) unexpected.push(name);
      }
      return { missing, unexpected, served };
    });
    process.stdout.write(`SDK operations routed: ${served} of ${ops.length}\n`);
    expect(missing, 'operations that lost their route').toEqual([]);
    expect(unexpected, 'operations now routed: take them off NOT_YET_SERVED').toEqual([]);
  });
});
