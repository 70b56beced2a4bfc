// A deliberately incompatible change of labOrderWorkflow (it records a transition before creating the
// order row), used to prove that replaying the saved lab-order history catches such a change.
import { proxyActivities, uuid4 } from '@temporalio/workflow';
import type { createOrderActivities } from '../../activities/orders/index.js';
import type { LabOrderInput } from '../../workflows/lab-order/definitions.js';

const acts = proxyActivities<ReturnType<typeof createOrderActivities>>({ startToCloseTimeout: '10 seconds' });

export async function labOrderWorkflow(input: LabOrderInput): Promise<string> {
  await acts.recordTransition({
    teamId: input.teamId,
    orderId: input.orderId,
    method: input.method,
    eventId: 1,
    low: 'ordered',
    statusDetail: null,
    outboxEventId: uuid4(),
    patch: {},
  });
  await acts.createOrderRecord({ record: input.record, idempotency: input.idempotency, outboxEventId: uuid4() });
  return 'ordered';
}
