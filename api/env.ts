import type { Logger } from '../lib/logger.js';

/** Per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** Set by the auth middleware on team-scoped routes. */
    teamId: string;
  };
}
