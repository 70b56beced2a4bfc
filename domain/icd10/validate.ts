/**
 * ICD-10-CM code checks for orders (`icd_codes`) and POST /v3/insurance/validate_icd_codes: the code's
 * shape, that it is a known, billable code (domain/icd10/codes.ts), and Excludes1 conflicts (errors)
 * and Excludes2 overlaps (warnings) between the codes given together.
 */
import { ICD10, type Icd10Entry } from './codes.js';

/** Letter (not U), digit, digit or letter, then optionally a dot and 1–4 digits or letters. */
const ICD10_SHAPE = /^[A-TV-Z][0-9][0-9A-Z](?:\.?[0-9A-Z]{1,4})?$/;

/** `e119`, `E11.9`, ` e11.9 ` → `E11.9`; null when it is not shaped like an ICD-10-CM code. */
export function normalizeIcd10(code: string): string | null {
  const c = code.trim().toUpperCase();
  if (!ICD10_SHAPE.test(c)) return null;
  const bare = c.replace('.', '');
  return bare.length > 3 ? `${bare.slice(0, 3)}.${bare.slice(3)}` : bare;
}

export function lookupIcd10(code: string): (Icd10Entry & { code: string }) | null {
  const normal = normalizeIcd10(code);
  const entry = normal ? ICD10[normal] : undefined;
  return normal && entry ? { code: normal, ...entry } : null;
}

export interface IcdValidation {
  valid: boolean;
  errors: string[];
  violations: { code: string; conflicts_with: string; type: string }[];
  warnings: { code: string; overlaps_with: string; type: string }[];
}

const matches = (code: string, prefixes: string[] | undefined) => (prefixes ?? []).some((p) => code.startsWith(p));

export function validateIcdCodes(codes: string[]): IcdValidation {
  const errors: string[] = [];
  const known: { code: string; entry: Icd10Entry }[] = [];
  const seen = new Set<string>();
  for (const raw of codes) {
    const normal = normalizeIcd10(raw);
    if (!normal) {
      errors.push(`${raw} is not a valid ICD-10 code format`);
      continue;
    }
    if (seen.has(normal)) {
      errors.push(`${normal} is given more than once`);
      continue;
    }
    seen.add(normal);
    const entry = ICD10[normal];
    if (!entry) errors.push(`${normal} is not a known ICD-10-CM code`);
    else if (!entry.billable) errors.push(`${normal} (${entry.description}) is a category, not a billable code: use a more specific code`);
    else known.push({ code: normal, entry });
  }
  if (known.length > 0 && known.every((k) => k.entry.secondaryOnly)) {
    errors.push(`${known.map((k) => k.code).join(', ')} may only be secondary diagnoses: add a primary diagnosis`);
  }
  const violations: IcdValidation['violations'] = [];
  const warnings: IcdValidation['warnings'] = [];
  for (const a of known) {
    for (const b of known) {
      if (a === b) continue;
      if (matches(b.code, a.entry.excludes1)) violations.push({ code: a.code, conflicts_with: b.code, type: 'excludes1' });
      if (matches(b.code, a.entry.excludes2)) warnings.push({ code: a.code, overlaps_with: b.code, type: 'excludes2' });
    }
  }
  return { valid: errors.length === 0 && violations.length === 0, errors, violations, warnings };
}

/**
 * Diagnosis search: billable codes starting with the query (dot optional), or whose description has a
 * word starting with each query word; descriptions containing the whole query come first.
 */
export function searchDiagnoses(query: string, limit = 20): { diagnosis_code: string; description: string; is_secondary: boolean }[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (q === '') return [];
  const codeQuery = q.replace('.', '').toUpperCase();
  const words = q.split(' ');
  const rank = (code: string, e: Icd10Entry): number | null => {
    if (code.replace('.', '').startsWith(codeQuery)) return 0;
    const text = e.description.toLowerCase();
    const own = text.split(/[^a-z0-9]+/);
    if (!words.every((w) => own.some((o) => o.startsWith(w)))) return null;
    return text.includes(q) ? 1 : 2;
  };
  return Object.entries(ICD10)
    .flatMap(([code, e]) => {
      const r = e.billable ? rank(code, e) : null;
      return r === null ? [] : [{ code, e, r }];
    })
    .sort((a, b) => a.r - b.r || a.code.localeCompare(b.code))
    .slice(0, limit)
    .map(({ code, e }) => ({ diagnosis_code: code, description: e.description, is_secondary: e.secondaryOnly ?? false }));
}
