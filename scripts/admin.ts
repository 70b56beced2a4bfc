/**
 * `npm run admin -- <command>`: team administration. Each command prints one JSON line.
 *   create-team --name NAME     → {"team_id": "...", "api_key": "..."}
 *   list-teams                  → {"teams": [{"team_id", "name", "environment", "region", "created_at"}]}
 *   rotate-key --team TEAM_ID   → {"team_id": "...", "api_key": "..."} (old keys stop working)
 * Uses DATABASE_URL, else the embedded Postgres under DATA_DIR (started for the command if not running).
 */
import { parseArgs } from 'node:util';
import { createTeam, listTeams, rotateTeamKey } from '../db/queries/teams.js';
import { loadConfigOrExit } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { migrate, startPostgres } from '../lib/service-stack.js';

const USAGE = 'usage: npm run admin -- create-team --name NAME | list-teams | rotate-key --team TEAM_ID';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, team: { type: 'string' } },
  });
  const command = positionals[0];
  if (!command || !['create-team', 'list-teams', 'rotate-key'].includes(command)) fail(`unknown command: ${command ?? '(none)'}`);
  if (command === 'create-team' && !values.name?.trim()) fail('create-team needs --name NAME');
  if (command === 'rotate-key' && !(values.team && UUID.test(values.team))) fail('rotate-key needs --team TEAM_ID (a UUID)');

  const config = loadConfigOrExit();
  // Progress goes to stderr so stdout stays one JSON line.
  const logger = createLogger({ level: 'info', name: 'admin', toStderr: true });
  const pg = await startPostgres(config, logger);
  const db = await migrate(pg.url, logger);
  let exitCode = 0;
  try {
    if (command === 'create-team') {
      const team = await createTeam(db.db, {
        name: values.name!.trim(),
        environment: config.SERVICE_ENVIRONMENT,
        region: config.SERVICE_REGION,
      });
      process.stdout.write(`${JSON.stringify({ team_id: team.teamId, api_key: team.apiKey })}\n`);
    } else if (command === 'list-teams') {
      const teams = await listTeams(db.db);
      const out = teams.map((t) => ({
        team_id: t.id,
        name: t.name,
        environment: t.environment,
        region: t.region,
        created_at: t.createdAt.toISOString(),
      }));
      process.stdout.write(`${JSON.stringify({ teams: out })}\n`);
    } else {
      const rotated = await rotateTeamKey(db.db, values.team!);
      if (!rotated) {
        process.stderr.write(`no team with id ${values.team}\n`);
        exitCode = 1;
      } else {
        process.stdout.write(`${JSON.stringify({ team_id: rotated.teamId, api_key: rotated.apiKey })}\n`);
      }
    }
  } finally {
    await db.close();
    await pg.stop();
  }
  process.exit(exitCode);
}

main().catch((err: unknown) => {
  process.stderr.write(`admin failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
