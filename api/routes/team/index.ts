import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { findTeam, listTeamPhysicians } from '../../../db/queries/physicians.js';
import type { AppEnv } from '../../env.js';
import { notFound } from '../../errors.js';
import { parse } from '../../validation.js';

export const teamIdParam = z.object({ team_id: z.guid('team_id must be a UUID') });

/**
 * /v2/team/{team_id} and /v2/team/{team_id}/physicians (CONTRACT §10). A key opens only its own
 * team: another team's id is a 404, as an unknown one.
 */
export function teamRoutes({ db }: { db: Db }) {
  const app = new Hono<AppEnv>({ strict: false });

  async function ownTeam(c: Context<AppEnv>) {
    const { team_id } = parse(teamIdParam, c.req.param(), 'path');
    if (team_id !== c.get('teamId')) throw notFound('Team not found');
    const team = await findTeam(db, team_id);
    if (!team) throw notFound('Team not found');
    return team;
  }

  app.get('/:team_id/physicians', async (c) => {
    const team = await ownTeam(c);
    return c.json(await listTeamPhysicians(db, team.id));
  });

  // ClientFacingTeam. `delegated_flow` here is the legacy team-level value (DelegatedFlowType): the
  // service's physicians order and follow results unless a lab account says otherwise.
  app.get('/:team_id', async (c) => {
    const team = await ownTeam(c);
    return c.json({
      id: team.id,
      org_id: team.id,
      name: team.name,
      testkits_texts_enabled: false,
      lab_tests_patient_communication_enabled: false,
      lab_tests_patient_sms_communication_enabled: false,
      lab_tests_patient_email_communication_enabled: false,
      delegated_flow: 'order_and_results_with_vital_physician_network',
      configuration: { libreview: { practice_id: {} }, partial_webhooks_enabled: team.partialWebhooksEnabled },
    });
  });

  return app;
}
