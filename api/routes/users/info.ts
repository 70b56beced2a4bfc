import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { findUserInfo, upsertUserInfo } from '../../../db/queries/user-info.js';
import { findUser } from '../../../db/queries/users.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import type { AppEnv } from '../../env.js';
import { notFound } from '../../errors.js';
import { birthDate, parse, parseJsonBody } from '../../validation.js';
import { userIdParam } from './schemas.js';

const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => (v === null ? undefined : v));
const text = (max = 200) => z.string().trim().min(1).max(max);
const phone = z.string().regex(/^\+?[0-9][0-9 ()-]{5,24}$/, 'must be a phone number');

const address = z.object({
  first_line: text(),
  second_line: optional(z.string().max(200)),
  country: text(100),
  zip: text(20),
  city: text(100),
  state: text(100),
});

/** `UserInfoCreateRequest` (CONTRACT §1 "others"); unknown keys are dropped. */
export const userInfoBody = z.object({
  first_name: text(100),
  last_name: text(100),
  email: z.email().max(320),
  phone_number: phone,
  gender: text(50),
  dob: birthDate(),
  address,
  medical_proxy: optional(
    z.object({
      first_name: text(100),
      last_name: text(100),
      address,
      phone_number: phone,
      household_income: optional(z.number().int().min(0)),
      household_size: optional(z.number().int().min(1).max(100)),
      email: optional(z.email().max(320)),
    }),
  ),
  race: optional(z.enum(['african_american_or_black', 'asian', 'indigenous_native_american_alaska_native', 'other', 'pacific_islander_or_hawaiian', 'white_caucasian'])),
  ethnicity: optional(z.enum(['hispanic', 'non_hispanic', 'ashkenazi_jewish', 'other'])),
  sexual_orientation: optional(z.enum(['lesbian_gay_or_homosexual', 'heterosexual_or_straight', 'bisexual', 'dont_know', 'other'])),
  gender_identity: optional(
    z.enum([
      'male',
      'female',
      'female_to_male_ftm_transgender_male_trans_man',
      'male_to_female_mtf_transgender_female_trans_woman',
      'genderqueer',
      'other',
    ]),
  ),
});

export interface UserInfoDeps {
  db: Db;
  secretBox: () => Promise<SecretBox>;
}

/** `PATCH /v2/user/{id}/info` and `GET /v2/user/{id}/info/latest`: the user's demographics, sealed at rest. */
export function userInfoRoutes({ db, secretBox }: UserInfoDeps) {
  const app = new Hono<AppEnv>({ strict: false });

  app.patch('/:user_id/info', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const body = await parseJsonBody(c, userInfoBody);
    const sealed = (await secretBox()).seal(JSON.stringify(body));
    if (!(await upsertUserInfo(db, c.get('teamId'), user_id, sealed, new Date()))) throw notFound('User not found');
    return c.json(body);
  });

  app.get('/:user_id/info/latest', async (c) => {
    const { user_id } = parse(userIdParam, c.req.param(), 'path');
    const teamId = c.get('teamId');
    const user = await findUser(db, teamId, user_id);
    if (!user || user.deletedAt) throw notFound('User not found');
    const sealed = await findUserInfo(db, teamId, user_id);
    if (!sealed) throw notFound('No info has been given for this user.');
    return c.json(JSON.parse((await secretBox()).open(sealed)) as unknown);
  });

  return app;
}
