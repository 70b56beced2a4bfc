import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Role of an operator of the deployment (the /dashboard): `viewer` reads, `operator` also acts. */
export const OPERATOR_ROLES = ['viewer', 'operator'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * People who run the deployment (not team API keys): created with `npm run admin -- create-operator`.
 * `password_hash` is a self-describing scrypt string (api/dashboard/password.ts); emails are stored lower-case.
 */
export const operators = pgTable('operators', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  role: text('role', { enum: OPERATOR_ROLES }).notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  disabledAt: tz('disabled_at'),
});

/** A logged-in browser: the cookie carries a random token, only its SHA-256 is stored; `csrf_token` guards its POSTs. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    expiresAt: tz('expires_at').notNull(),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
);

/** Failed logins, counted per email and per client address over a window to throttle guessing. */
export const operatorLoginFailures = pgTable(
  'operator_login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `email:<address>` or `ip:<address>`. */
    key: text('key').notNull(),
    at: tz('at').notNull().defaultNow(),
  },
  (t) => [index('operator_login_failures_key_idx').on(t.key, t.at)],
);

/** Every operator action (and login/logout): who, what, on which target, when. Never holds secrets. */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    operatorId: uuid('operator_id').references(() => operators.id, { onDelete: 'set null' }),
    operatorEmail: text('operator_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    at: tz('at').notNull().defaultNow(),
  },
  (t) => [index('operator_audit_at_idx').on(t.at), index('operator_audit_target_idx').on(t.targetType, t.targetId)],
);
