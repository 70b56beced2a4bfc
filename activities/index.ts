import type { Db } from '../db/client.js';
import type { Logger } from '../lib/logger.js';
import { createUserActivities } from './users/index.js';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
}

/** All activities, built from their dependencies; worker.ts wires the real ones, tests may override. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createUserActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
