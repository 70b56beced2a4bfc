import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { workflowsPath } from '../../worker.js';
import { loadHistories } from '../support/histories.js';

// Histories recorded from real runs (`npm run record:histories`) must replay on today's workflow code.
describe('workflow replay', () => {
  const histories = loadHistories();

  it('has saved histories to replay', () => {
    expect(histories.map((h) => h.workflowId)).toEqual(expect.arrayContaining(['user-deletion-erased', 'user-deletion-restored']));
  });

  it('replays every saved history on the current workflow code', async () => {
    const results = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: workflowsPath() }, histories)) results.push(result);
    expect(results).toHaveLength(histories.length);
    for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
  }, 60_000);

  it('fails replay of a deliberately changed workflow with a determinism violation', async () => {
    const changed = fileURLToPath(new URL('../replay/changed-user-deletion.ts', import.meta.url));
    const erased = histories.find((h) => h.workflowId === 'user-deletion-erased')!;
    await expect(Worker.runReplayHistory({ workflowsPath: changed }, erased.history, erased.workflowId)).rejects.toBeInstanceOf(
      DeterminismViolationError,
    );
  }, 60_000);
});
