import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkflowHandle } from '@temporalio/client';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';

export const HISTORIES_DIR = fileURLToPath(new URL('../histories/', import.meta.url));

/**
 * With RECORD_HISTORIES=1 (`npm run record:histories`), integration tests save the histories of the
 * workflows they ran to test/histories/<name>.json, for the replay tests. Otherwise this does nothing.
 */
export async function recordHistory(name: string, handle: WorkflowHandle): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const history = await handle.fetchHistory();
  writeFileSync(`${HISTORIES_DIR}${name}.json`, `${historyToJSON(history)}\n`);
}

export function loadHistories(prefix = '') {
  return readdirSync(HISTORIES_DIR)
    .filter((f) => f.endsWith('.json') && f.startsWith(prefix))
    .sort()
    .map((file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: historyFromJSON(JSON.parse(readFileSync(`${HISTORIES_DIR}${file}`, 'utf8'))),
    }));
}
