import type { ConnectionSummary, UserRow } from '../../../db/queries/users.js';
import { providerDisplay } from '../../../domain/providers.js';
import type { ClientFacingUser } from './schemas.js';

/** The fallbacks were set through the API, so their source is `manual` (as the reference service does). */
const MANUAL_SOURCE = 'manual';

export function toClientFacingUser(user: UserRow, connections: ConnectionSummary[] = []): ClientFacingUser {
  return {
    user_id: user.id,
    team_id: user.teamId,
    client_user_id: user.clientUserId,
    created_on: user.createdOn.toISOString(),
    connected_sources: connections.map((conn) => {
      const provider = providerDisplay(conn.provider);
      return { provider, source: provider, created_on: conn.createdAt.toISOString() };
    }),
    fallback_time_zone:
      user.fallbackTimeZone && user.fallbackTimeZoneUpdatedAt
        ? { id: user.fallbackTimeZone, source_slug: MANUAL_SOURCE, updated_at: user.fallbackTimeZoneUpdatedAt.toISOString() }
        : null,
    fallback_birth_date:
      user.fallbackBirthDate && user.fallbackBirthDateUpdatedAt
        ? { value: user.fallbackBirthDate, source_slug: MANUAL_SOURCE, updated_at: user.fallbackBirthDateUpdatedAt.toISOString() }
        : null,
    ingestion_start: user.ingestionStart,
    ingestion_end: user.ingestionEnd,
  };
}
