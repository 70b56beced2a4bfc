import type { Db } from '../../db/client.js';
import { eraseUser, restoreUser } from '../../db/queries/users.js';
import type { Logger } from '../../lib/logger.js';

interface Deps {
  db: Db;
  logger: Logger;
}

/** Activities of the user-deletion workflow. Both are idempotent, so retries are safe. */
export function createUserActivities({ db, logger }: Deps) {
  return {
    async restoreUser(input: { teamId: string; userId: string }): Promise<void> {
      await restoreUser(db, input.teamId, input.userId);
      logger.info({ team_id: input.teamId, user_id: input.userId }, 'user deletion undone');
    },
    async eraseUser(input: { teamId: string; userId: string }): Promise<void> {
      const erased = await eraseUser(db, input.teamId, input.userId);
      logger.info({ team_id: input.teamId, user_id: input.userId, erased }, 'user erased after grace period');
    },
  };
}
