import { z } from 'zod';
import { PAYOR_PROVIDERS } from '../../../domain/insurance/payors.js';

const text = (max: number) => z.string().trim().min(1).max(max);

/** `Address` (CONTRACT §4). */
export const address = z.object({
  first_line: text(200),
  second_line: z.string().max(200).nullish(),
  country: text(60),
  zip: text(20),
  city: text(100),
  state: text(60),
});

export const payorSearchQuery = z.object({
  insurance_name: z.string().trim().max(200).optional(),
  provider: z.enum(PAYOR_PROVIDERS).optional(),
  provider_payor_id: z.string().trim().max(60).optional(),
});

/** The deprecated POST search: `provider_id` instead of `provider_payor_id`. */
export const payorSearchBody = z.object({
  insurance_name: z.string().trim().max(200).nullish(),
  provider: z.enum(PAYOR_PROVIDERS).nullish(),
  provider_id: z.string().trim().max(60).nullish(),
});

export const diagnosisQuery = z.object({ diagnosis_query: z.string().trim().min(1, 'diagnosis_query must not be empty').max(200) });

export const validateIcdCodesBody = z.object({
  codes: z.array(z.string().max(20)).min(1, 'give at least one code').max(50),
});

export const createPayorBody = z.object({
  name: text(200),
  address,
  provider: z.enum(PAYOR_PROVIDERS).nullish(),
  provider_payor_id: z.string().trim().min(1).max(60).nullish(),
});

const gender = z.enum(['female', 'male', 'other', 'unknown']);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dob must be YYYY-mm-dd').refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'dob must be a real date');

/** `CreateInsuranceRequest` (user.createInsurance). */
export const createInsuranceBody = z.object({
  payor_code: text(60),
  member_id: text(60),
  group_id: z.string().trim().max(60).nullish(),
  relationship: z.enum(['Self', 'Spouse', 'Other']),
  insured: z.object({
    first_name: text(100),
    last_name: text(100),
    gender,
    address,
    dob: isoDate,
    email: z.email().max(254),
    phone_number: text(30),
  }),
  guarantor: z
    .object({
      first_name: text(100),
      last_name: text(100),
      address,
      phone_number: text(30),
      household_income: z.number().nonnegative().nullish(),
      household_size: z.number().int().positive().nullish(),
      email: z.email().max(254).nullish(),
    })
    .nullish(),
  is_primary: z.boolean().nullish(),
});

export const latestInsuranceQuery = z.object({ is_primary: z.enum(['true', 'false']).optional() });

export const userIdParam = z.object({ user_id: z.guid('user_id must be a UUID') });
