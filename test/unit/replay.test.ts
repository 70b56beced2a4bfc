import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { workflowsPath } from '../../worker.js';
import { loadHistories } from '../support/histories.js';
import { TEST_SECRET_ENCRYPTION_KEY } from '../support/constants.js';
import { serviceDataConverter } from '../../lib/payload-codec.js';

// Histories recorded from real runs (`npm run record:histories`) must replay on today's workflow code.
// Histories recorded since payload encryption carry sealed payloads: replay decodes them with the tests' key.
const dataConverter = serviceDataConverter(async () => Buffer.from(TEST_SECRET_ENCRYPTION_KEY, 'base64'));

describe('workflow replay', () => {
  const histories = loadHistories();

  it('has saved histories to replay', () => {
    expect(histories.map((h) => h.workflowId)).toEqual(
      expect.arrayContaining([
        'user-deletion-erased',
        'user-deletion-restored',
        'lab-order-testkit-registrable-completed',
        // recorded before the API started orders with their search attributes (the first task upserted them)
        'lab-order-testkit-registrable-completed-before-start-search-attributes',
        // recorded before one marker stood for every order patch (ORDER_PATCHES_2026_11): one marker per patch
        'lab-order-testkit-registrable-completed-api-recorded-before-patch-generation',
        'lab-order-walk-in-redraw-available-before-patch-generation',
        'lab-order-phlebotomy-reserved-confirmed-before-patch-generation',
        'lab-order-phlebotomy-reserved-released-before-patch-generation',
        'lab-order-on-site-poison-results-before-patch-generation',
        'lab-order-phlebotomy-partner-draw-before-patch-generation',
        // recorded before a zero-delay simulation's steps were recorded by one local activity (one per step)
        'lab-order-testkit-registrable-completed-before-simulated-walk',
        'lab-order-walk-in-redraw-available-before-simulated-walk',
        'lab-order-on-site-completed-before-simulated-walk',
        'lab-order-walk-in-completed-before-simulated-walk',
        'lab-order-phlebotomy-completed-before-simulated-walk',
        'lab-order-phlebotomy-simulated-booking-before-simulated-walk',
        // recorded before results were stored by the activity recording their step (storeResults on its own)
        'lab-order-testkit-registrable-completed-before-results-with-step',
        // recorded before the status search attribute was upserted once before each wait (once per step)
        'lab-order-testkit-registrable-completed-before-search-status-before-wait',
        // recorded before order creation became one local activity (the patched() branch keeps it replaying)
        'lab-order-testkit-registrable-completed-before-local-create',
        // recorded before the order's steps became local activities
        'lab-order-testkit-registrable-completed-before-local-steps',
        // recorded before payload encryption (plain payloads pass through the codec)
        'lab-order-testkit-registrable-completed-plain-payloads',
        // the other collection methods under the generic order workflow, a redraw, and a poison step
        'lab-order-on-site-completed',
        'lab-order-walk-in-completed',
        'lab-order-phlebotomy-completed',
        'lab-order-walk-in-redraw-available',
        'lab-order-on-site-poison-results',
        // appointments: a simulated order booking its sandbox appointment, reserved ones confirmed and
        // released, and the draw reported by the provider through the partner API (Updates)
        'lab-order-phlebotomy-simulated-booking',
        'lab-order-phlebotomy-reserved-confirmed',
        'lab-order-phlebotomy-reserved-released',
        'lab-order-phlebotomy-partner-draw',
        // lab report parsing jobs: a PDF parsed straight through, and one approved by a reviewer
        'lab-report-job-pdf-completed',
        'lab-report-job-reviewed',
      ]),
    );
  });

  it('replays every saved history on the current workflow code', async () => {
    const results = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: workflowsPath(), dataConverter }, histories)) results.push(result);
    expect(results).toHaveLength(histories.length);
    for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
  }, 60_000);

  it.each([
    ['changed-user-deletion.ts', 'user-deletion-erased'],
    ['changed-lab-order.ts', 'lab-order-testkit-registrable-completed-before-local-create'],
  ])('fails replay of a deliberately changed workflow (%s) with a determinism violation', async (file, historyId) => {
    const changed = fileURLToPath(new URL(`../replay/${file}`, import.meta.url));
    const saved = histories.find((h) => h.workflowId === historyId)!;
    await expect(Worker.runReplayHistory({ workflowsPath: changed, dataConverter }, saved.history, saved.workflowId)).rejects.toBeInstanceOf(
      DeterminismViolationError,
    );
  }, 60_000);
});
