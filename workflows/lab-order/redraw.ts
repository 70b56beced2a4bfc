import { ParentClosePolicy, startChild, uuid4 } from '@temporalio/workflow';
import { type LabOrderInput, labOrderWorkflowId, labOrderWorkflowType } from './definitions.js';
import { childTaskQueue } from '../shared/task-queues.js';

const SAMPLE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A kit-style sample id (12 unambiguous characters) from the workflow's deterministic randomness. */
function sampleIdFrom(seed: string): string {
  const hex = seed.replace(/-/g, '');
  let id = '';
  for (let i = 0; i < 12; i++) id += SAMPLE_ALPHABET[parseInt(hex.slice(i * 2, i * 2 + 2), 16) % SAMPLE_ALPHABET.length];
  return id;
}

/**
 * The redraw of an initial walk-in order that ended `redraw_available` (BEHAVIOUR §1 Redraws): a new order
 * (`origin: redraw`, `parent_id` the initial order) in the same order_transaction, with its own workflow
 * that outlives this one, for the markers the initial order missed. A redraw never offers another redraw
 * (at most one). Returns the redraw's id.
 */
export async function startRedraw(input: LabOrderInput, missingSlugs: string[] | null): Promise<string> {
  const redrawId = uuid4();
  const workflowId = labOrderWorkflowId(redrawId);
  const child: LabOrderInput = {
    ...input,
    orderId: redrawId,
    redraw: false,
    imported: false,
    activateBy: null,
    idempotency: null,
    // the redraw draws its own event ids: the initial order's (what the API wrote it under) are taken
    recorded: undefined,
    record: {
      ...input.record,
      id: redrawId,
      workflowId,
      detailsId: uuid4(),
      sampleId: sampleIdFrom(uuid4()),
      origin: 'redraw',
      parentId: input.orderId,
      activateBy: null,
      // the markers the initial order missed (BEHAVIOUR §1 Redraws); null in histories from before
      ...(missingSlugs && missingSlugs.length > 0 ? { redrawMarkerSlugs: missingSlugs } : {}),
    },
  };
  await startChild(labOrderWorkflowType, {
    workflowId,
    taskQueue: childTaskQueue('orders'),
    args: [child],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  return redrawId;
}
