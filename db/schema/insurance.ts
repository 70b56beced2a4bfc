import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PayorAddress, PayorProvider } from '../../domain/insurance/payors.js';
import { teams } from './teams.js';
import { users } from './users.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A team's own payors (POST /v3/payor); the service's own list is domain/insurance/payors.ts. */
export const teamPayors = pgTable(
  'team_payors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    payorCode: text('payor_code').notNull(),
    name: text('name').notNull(),
    address: jsonb('address').$type<PayorAddress>().notNull(),
    provider: text('provider').$type<PayorProvider>(),
    providerPayorId: text('provider_payor_id'),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('team_payors_code_uq').on(t.teamId, t.payorCode)],
);

/** A user's health insurance (POST /v2/user/{id}/insurance); the newest (primary) one is what orders bill. */
export const userInsurances = pgTable(
  'user_insurances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    payorCode: text('payor_code').notNull(),
    memberId: text('member_id').notNull(),
    groupId: text('group_id'),
    relationship: text('relationship').notNull(),
    insured: jsonb('insured').$type<Record<string, unknown>>().notNull(),
    guarantor: jsonb('guarantor').$type<Record<string, unknown>>(),
    isPrimary: boolean('is_primary').notNull().default(true),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('user_insurances_user_idx').on(t.teamId, t.userId, t.createdAt)],
);
