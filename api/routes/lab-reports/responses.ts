/**
 * Wire shape of a parsing job (CONTRACT §7 ParsingJob, LabReportResult), with our extra keys (failure,
 * review, file, page count, timestamps; README "Lab report parsing"); optional keys present as null.
 */
import { z } from 'zod';

const isoDateTime = z.iso.datetime({ offset: true });

export const loincMatch = z.object({
  loinc_code: z.string(),
  loinc_name: z.string(),
  display_name: z.string().nullish(),
  aliases: z.array(z.string()).nullish(),
  confidence_score: z.number(),
});

export const labReportResult = z.object({
  test_name: z.string(),
  value: z.string(),
  type: z.string().nullish(),
  units: z.string().nullish(),
  max_reference_range: z.number().nullish(),
  min_reference_range: z.number().nullish(),
  source_panel_name: z.string().nullish(),
  loinc_matches: z.array(loincMatch).nullish(),
  interpretation: z.string().nullish(),
  is_above_max_range: z.boolean().nullish(),
  is_below_min_range: z.boolean().nullish(),
});

export const parsedLabReportData = z.object({
  metadata: z.object({
    patient_first_name: z.string(),
    patient_last_name: z.string(),
    dob: z.string(),
    lab_name: z.string(),
    date_reported: z.string().nullish(),
    date_collected: z.string().nullish(),
    specimen_number: z.string().nullish(),
  }),
  results: z.array(labReportResult),
});

export const parsingJob = z.object({
  id: z.string(),
  job_id: z.string(),
  status: z.enum(['upload_pending', 'started', 'completed', 'failed']),
  data: parsedLabReportData.nullable(),
  needs_human_review: z.boolean(),
  is_reviewed: z.boolean(),
  failure_reason: z.string().nullable(),
  failure_detail: z.string().nullable(),
  review_status: z.string().nullable(),
  review_deadline: isoDateTime.nullable(),
  user_id: z.string(),
  file: z.object({ name: z.string().nullable(), content_type: z.string().nullable(), size: z.number().nullable() }),
  page_count: z.number().int().nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
