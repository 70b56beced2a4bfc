/**
 * `npm run admin -- <command>`: team administration. Each command prints one JSON line.
 *   create-team --name NAME     → {"team_id": "...", "api_key": "..."}
 *   list-teams                  → {"teams": [{"team_id", "name", "environment", "region", "created_at"}]}
 *   rotate-key --team TEAM_ID   → {"team_id": "...", "api_key": "..."} (old keys stop working)
 *   create-partner-key --name N --kind courier|lab|operator [--lab-slug S]
 *                               → {"partner_key_id": "...", "api_key": "..."} (lab keys need --lab-slug)
 *   list-partner-keys           → {"partner_keys": [{"partner_key_id", "name", "kind", "lab_slug", "hint", "created_at", "revoked_at"}]}
 *   revoke-partner-key --id ID  → {"partner_key_id": "...", "revoked": true}
 *   create-lab-account --team TEAM_ID --lab-slug S --name N [--default-comment C]
 *                               → {"lab_account_id", "team_id", "lab_slug", "name", "default_comment", "status"}
 *   create-operator --email E --password P [--role viewer|operator]
 *                               → {"operator_id", "email", "role"} (a dashboard login; the password is stored as an scrypt hash)
 * Uses DATABASE_URL, else the embedded Postgres under DATA_DIR (started for the command if not running).
 */
import { parseArgs } from 'node:util';
import { createTeam, listTeams, rotateTeamKey } from '../db/queries/teams.js';
import { PARTNER_KINDS, createPartnerKey, findLabBySlug, listPartnerKeys, revokePartnerKey, type PartnerKind } from '../db/queries/partners.js';
import { createLabAccount } from '../db/queries/lab-accounts.js';
import { insertOperator } from '../db/queries/dashboard/operators.js';
import { OPERATOR_ROLES, type OperatorRole } from '../db/schema/operators.js';
import { MIN_PASSWORD_LENGTH, hashPassword } from '../api/dashboard/password.js';
import { loadConfigOrExit, type Config } from '../lib/config.js';
import type { Db } from '../db/client.js';
import { createLogger } from '../lib/logger.js';
import { migrate, startPostgres } from '../lib/service-stack.js';

const USAGE = 'usage: npm run admin -- create-team --name NAME | list-teams | rotate-key --team TEAM_ID' +
  ' | create-partner-key --name NAME --kind courier|lab|operator [--lab-slug LAB_SLUG] | list-partner-keys | revoke-partner-key --id ID' +
  ' | create-lab-account --team TEAM_ID --lab-slug LAB_SLUG --name NAME [--default-comment TEXT]' +
  ' | create-operator --email EMAIL --password PASSWORD [--role viewer|operator]';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      team: { type: 'string' },
      kind: { type: 'string' },
      'lab-slug': { type: 'string' },
      id: { type: 'string' },
      'default-comment': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (!command || !['create-team', 'list-teams', 'rotate-key', 'create-lab-account', 'create-operator', ...PARTNER_COMMANDS].includes(command)) {
    fail(`unknown command: ${command ?? '(none)'}`);
  }
  if (command === 'create-team' && !values.name?.trim()) fail('create-team needs --name NAME');
  if (command === 'rotate-key' && !(values.team && UUID.test(values.team))) fail('rotate-key needs --team TEAM_ID (a UUID)');
  checkPartnerArgs(command, values);
  if (command === 'create-operator') checkOperatorArgs(values);
  if (command === 'create-lab-account') {
    if (!(values.team && UUID.test(values.team))) fail('create-lab-account needs --team TEAM_ID (a UUID)');
    if (!values['lab-slug']?.trim()) fail('create-lab-account needs --lab-slug LAB_SLUG');
    if (!values.name?.trim()) fail('create-lab-account needs --name NAME');
  }

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
    } else if (PARTNER_COMMANDS.includes(command)) {
      exitCode = await partnerCommand(db.db, config, command, values);
    } else if (command === 'create-lab-account') {
      exitCode = await createLabAccountCommand(db.db, values);
    } else if (command === 'create-operator') {
      exitCode = await createOperatorCommand(db.db, values);
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

const PARTNER_COMMANDS: readonly string[] = ['create-partner-key', 'list-partner-keys', 'revoke-partner-key'];
type PartnerArgs = { name?: string | undefined; kind?: string | undefined; 'lab-slug'?: string | undefined; id?: string | undefined };

function checkPartnerArgs(command: string, values: PartnerArgs): void {
  if (command === 'create-partner-key') {
    if (!values.name?.trim()) fail('create-partner-key needs --name NAME');
    if (!(PARTNER_KINDS as readonly string[]).includes(values.kind ?? '')) fail('create-partner-key needs --kind courier|lab|operator');
    if ((values.kind === 'lab') !== Boolean(values['lab-slug'])) fail('a lab key needs --lab-slug LAB_SLUG, and only a lab key takes one');
  }
  if (command === 'revoke-partner-key' && !(values.id && UUID.test(values.id))) fail('revoke-partner-key needs --id ID (a UUID)');
}

/** Partner keys (docs/partner-api.md): couriers, labs and operators reporting on orders. Returns the exit code. */
async function partnerCommand(db: Db, config: Config, command: string, values: PartnerArgs): Promise<number> {
  if (command === 'create-partner-key') {
    const slug = values['lab-slug'];
    const lab = slug ? await findLabBySlug(db, slug) : null;
    if (slug && !lab) {
      process.stderr.write(`no lab with slug ${slug}\n`);
      return 1;
    }
    const created = await createPartnerKey(db, {
      name: values.name!.trim(),
      kind: values.kind as PartnerKind,
      labId: lab?.id ?? null,
      environment: config.SERVICE_ENVIRONMENT,
      region: config.SERVICE_REGION,
    });
    process.stdout.write(`${JSON.stringify({ partner_key_id: created.partnerKeyId, api_key: created.apiKey })}\n`);
  } else if (command === 'list-partner-keys') {
    const keys = (await listPartnerKeys(db)).map((k) => ({
      partner_key_id: k.id,
      name: k.name,
      kind: k.kind,
      lab_slug: k.labSlug,
      hint: k.hint,
      created_at: k.createdAt.toISOString(),
      revoked_at: k.revokedAt?.toISOString() ?? null,
    }));
    process.stdout.write(`${JSON.stringify({ partner_keys: keys })}\n`);
  } else {
    if (!(await revokePartnerKey(db, values.id!))) {
      process.stderr.write(`no partner key with id ${values.id}\n`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify({ partner_key_id: values.id, revoked: true })}\n`);
  }
  return 0;
}

/** A team's account at a lab; its default comment is printed on every requisition after the order's own. Returns the exit code. */
async function createLabAccountCommand(
  db: Db,
  values: { team?: string | undefined; 'lab-slug'?: string | undefined; name?: string | undefined; 'default-comment'?: string | undefined },
): Promise<number> {
  const lab = await findLabBySlug(db, values['lab-slug']!.trim());
  if (!lab) {
    process.stderr.write(`no lab with slug ${values['lab-slug']}\n`);
    return 1;
  }
  const comment = values['default-comment']?.trim() || null;
  const account = await createLabAccount(db, { teamId: values.team!, labId: lab.id, name: values.name!.trim(), defaultComment: comment });
  if (!account) {
    process.stderr.write(`no team with id ${values.team}\n`);
    return 1;
  }
  const out = {
    lab_account_id: account.id,
    team_id: account.teamId,
    lab_slug: lab.slug,
    name: account.name,
    default_comment: account.defaultComment,
    status: account.status,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  return 0;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkOperatorArgs(values: { email?: string | undefined; password?: string | undefined; role?: string | undefined }): void {
  if (!(values.email && EMAIL.test(values.email.trim()) && values.email.length <= 254)) fail('create-operator needs --email EMAIL');
  if (!values.password || values.password.length < MIN_PASSWORD_LENGTH || values.password.length > 1024) {
    fail(`create-operator needs --password PASSWORD (at least ${MIN_PASSWORD_LENGTH} characters)`);
  }
  if (values.role !== undefined && !(OPERATOR_ROLES as readonly string[]).includes(values.role)) fail('--role is viewer or operator');
}

/** A dashboard operator (api/dashboard). Returns the exit code. */
async function createOperatorCommand(db: Db, values: { email?: string | undefined; password?: string | undefined; role?: string | undefined }): Promise<number> {
  const role = (values.role ?? 'operator') as OperatorRole;
  const created = await insertOperator(db, { email: values.email!, passwordHash: await hashPassword(values.password!), role });
  if (!created) {
    process.stderr.write(`an operator with email ${values.email!.trim().toLowerCase()} exists already\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify({ operator_id: created.id, email: created.email, role: created.role })}\n`);
  return 0;
}

main().catch((err: unknown) => {
  process.stderr.write(`admin failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
