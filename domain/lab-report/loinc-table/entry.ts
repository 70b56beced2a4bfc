/**
 * Shape of one curated LOINC entry, and the compact row helper the data files use.
 *
 * Facts per entry follow the public LOINC release (code with its mod-10 check digit, LONG_COMMON_NAME,
 * SYSTEM); the short display name, the English/German/French aliases and the usual units are ours,
 * written from how lab reports print these observations.
 */

/** LOINC SYSTEM axis values used in the table (abbreviated as LOINC does). */
export type LoincSystem =
  | 'Ser/Plas'
  | 'Ser'
  | 'Bld'
  | 'BldA'
  | 'RBC'
  | 'PPP'
  | 'Urine'
  | 'Urine sed'
  | '24H Urine'
  | 'Ser/Plas/Bld'
  | 'Plas';

/** Coarse report sections an observation usually appears under; used to rank ambiguous names. */
export type PanelTag =
  | 'cbc'
  | 'diff'
  | 'chem'
  | 'electrolyte'
  | 'renal'
  | 'liver'
  | 'lipid'
  | 'diabetes'
  | 'iron'
  | 'thyroid'
  | 'hormone'
  | 'vitamin'
  | 'inflammation'
  | 'coag'
  | 'cardiac'
  | 'tumor'
  | 'immunology'
  | 'serology'
  | 'urinalysis'
  | 'urine-chem'
  | 'blood-gas';

export interface LoincEntry {
  code: string;
  /** LOINC long common name. */
  name: string;
  /** Short display name, as a report would print it. */
  display: string;
  system: LoincSystem;
  /** Usual units, conventional first then SI (canonical spelling, see units.ts). Empty for unitless. */
  units: string[];
  /** English, German and French names; `other`: further languages and analyser notations (coverage.ts). */
  aliases: { en: string[]; de: string[]; fr: string[]; other?: string[] };
  panels: PanelTag[];
  /**
   * Preference among entries that share aliases and unit kind: 1 for the code labs use most, 2 for a
   * method-less or rarer variant, 3 for a specimen variant (e.g. whole blood). Lower wins ties.
   */
  rank: number;
}

const split = (s: string): string[] => (s === '' ? [] : s.split('|').map((x) => x.trim()));

/** One row: `units`, `en`, `de`, `fr` and `panels` are '|'-separated lists (kept on one line per entry). */
export function row(
  code: string,
  name: string,
  display: string,
  system: LoincSystem,
  units: string,
  en: string,
  de: string,
  fr: string,
  panels: string,
  rank = 1,
): LoincEntry {
  return {
    code,
    name,
    display,
    system,
    units: split(units),
    aliases: { en: split(en), de: split(de), fr: split(fr) },
    panels: split(panels) as PanelTag[],
    rank,
  };
}

/** LOINC check digit (mod 10, as published with LOINC): double every other digit from the right. */
export function loincCheckDigit(body: string): number {
  let sum = 0;
  const digits = body.split('').reverse();
  digits.forEach((ch, i) => {
    let d = Number(ch);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  });
  return (10 - (sum % 10)) % 10;
}

/** True when `code` is NNNNN-C with a correct check digit. */
export function isValidLoincCode(code: string): boolean {
  const m = /^(\d{1,7})-(\d)$/.exec(code);
  if (!m) return false;
  return loincCheckDigit(m[1]!) === Number(m[2]);
}
