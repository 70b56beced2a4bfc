import { z } from 'zod';
import type { ParsingJobMime } from '../../../workflows/lab-report/definitions.js';
import { finite, int4, name, text as boundedText, uuid } from '../../validation.js';

/** Largest accepted upload: one file, or all the images of a multi-image report together (BEHAVIOUR §9). */
export const MAX_UPLOAD_BYTES = 30 * 1024 * 1024;
/** A report may be uploaded as up to this many JPEG/PNG images (its pages, in order). */
export const MAX_IMAGE_FILES = 8;
/** The multipart envelope around the files (boundaries, headers, the other fields) may add this much. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
/** Jobs (not failed) a team may have in the sandbox environment. */
export const SANDBOX_PARSING_JOB_LIMIT = 300;

/** Form booleans as FastAPI reads them (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`, any case). */
const formBool = name(10)
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 't', 'f', 'y', 'n'].includes(v), 'Input should be a valid boolean')
  .transform((v) => ['true', '1', 'yes', 'on', 't', 'y'].includes(v));

/** The text fields of POST /lab_report/v1/parser/job (the file is checked on its own). */
export const createJobFields = z.object({
  user_id: uuid('user_id'),
  needs_human_review: formBool.optional().transform((v) => v ?? false),
});

export const jobIdParam = z.object({ job_id: uuid('job_id') });

/** What the file's first bytes say it is, whatever its name or declared type. */
export function sniffMime(bytes: Uint8Array): ParsingJobMime | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  // PDF readers accept the header anywhere in the first 1024 bytes.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'application/pdf';
  return null;
}

const text = (max: number) => boundedText(max, { trim: false });
const num = finite();

export const loincMatch = z.object({
  loinc_code: text(20).min(1),
  loinc_name: text(500).min(1),
  display_name: text(500).optional(),
  aliases: z.array(text(200)).max(50).optional(),
  confidence_score: z.number().min(0).max(1),
});

/** A corrected result (CONTRACT §7 LabReportResult). */
export const reviewedResult = z.object({
  test_name: text(300).trim().min(1),
  value: text(300),
  type: z.enum(['numeric', 'range', 'comment', 'boolean', 'duration', 'percentage', 'ratio']).default('numeric'),
  units: text(50).optional(),
  min_reference_range: num.optional(),
  max_reference_range: num.optional(),
  reference_range_text: text(200).optional(),
  source_panel_name: text(300).optional(),
  flag: text(20).optional(),
  interpretation: z.enum(['normal', 'abnormal', 'critical', 'unknown']).optional(),
  is_above_max_range: z.boolean().optional(),
  is_below_min_range: z.boolean().optional(),
  loinc_matches: z.array(loincMatch).max(5).optional(),
  page: int4(1).optional(),
});

/** POST /lab_report/v1/parser/job/{job_id}/review: approve the parsed results, or approve corrected ones. */
export const reviewBody = z.object({
  approve: z.literal(true, { error: 'approve must be true (send corrected results to change them)' }),
  results: z.array(reviewedResult).max(1000).optional(),
  metadata: z
    .object({
      patient_first_name: text(200),
      patient_last_name: text(200),
      dob: text(20),
      lab_name: text(300),
      date_reported: text(40),
      date_collected: text(40),
      specimen_number: text(100),
    })
    .partial()
    .strict()
    .optional(),
});
