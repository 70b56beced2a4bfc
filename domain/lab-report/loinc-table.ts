/**
 * The curated LOINC table the parser matches report names against.
 *
 * Versioning: bump LOINC_TABLE_VERSION whenever an entry is added, removed or its code/aliases change,
 * so stored matches can say which table produced them. Codes, long common names and systems follow
 * the public LOINC release LOINC_RELEASE (LOINC is © Regenstrief Institute, used under its licence);
 * short names, aliases (English, German, French) and usual units are curated here from how lab reports
 * print these observations. Every code carries its mod-10 check digit (tested).
 */
import { CHEMISTRY } from './loinc-table/chemistry.js';
import { COVERAGE, OTHER_ALIASES } from './loinc-table/coverage.js';
import { ENDOCRINE } from './loinc-table/endocrine.js';
import { type LoincEntry } from './loinc-table/entry.js';
import { HEMATOLOGY } from './loinc-table/hematology.js';
import { IMMUNOLOGY } from './loinc-table/immunology.js';
import { URINE } from './loinc-table/urine.js';

export type { LoincEntry, LoincSystem, PanelTag } from './loinc-table/entry.js';
export { isValidLoincCode, loincCheckDigit } from './loinc-table/entry.js';

export const LOINC_TABLE_VERSION = '2025.7';
/** The LOINC release whose codes and long common names the table follows. */
export const LOINC_RELEASE = '2.78';

/** An entry with its names in further languages (coverage.ts) added as `other` aliases. */
function withOtherAliases(entry: LoincEntry): LoincEntry {
  const other = OTHER_ALIASES[entry.code];
  if (!other) return entry;
  return { ...entry, aliases: { ...entry.aliases, other: other.split('|').map((x) => x.trim()) } };
}

export const LOINC_TABLE: readonly LoincEntry[] = Object.freeze(
  [...HEMATOLOGY, ...CHEMISTRY, ...ENDOCRINE, ...IMMUNOLOGY, ...URINE, ...COVERAGE].map(withOtherAliases),
);

const BY_CODE = new Map(LOINC_TABLE.map((e) => [e.code, e]));

export function loincEntry(code: string): LoincEntry | undefined {
  return BY_CODE.get(code);
}
