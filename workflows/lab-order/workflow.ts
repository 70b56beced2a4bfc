import { lifecycleFor } from '../../domain/orders/lifecycles.js';
import type { LowLevelStatus } from '../../domain/orders/status.js';
import type { LabOrderInput } from './definitions.js';
import { runOrder } from './run.js';

/**
 * One lab order, from creation to its end, for every collection method: the method's lifecycle
 * (domain/orders/*-lifecycle.ts) decides every transition; run.ts records them.
 */
export async function labOrderWorkflow(input: LabOrderInput): Promise<LowLevelStatus> {
  const chosen = lifecycleFor(input.method, {
    registrable: input.registrable,
    imported: input.imported ?? false,
    redraw: input.redraw ?? false,
  });
  // Each branch fixes the lifecycle's state type for the generic run.
  return chosen.method === 'testkit' ? runOrder(input, chosen.lifecycle, chosen.initial) : runOrder(input, chosen.lifecycle, chosen.initial);
}
