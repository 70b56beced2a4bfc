/**
 * Limits no human sample reaches, for common analytes in their usual units: a potassium of 43 mmol/L
 * or a haemoglobin of 129 g/dL is a misreading (OCR lost a decimal separator in the value and its
 * range alike, so the two still agree), never a result. The limits are deliberately wide — several
 * times past the highest and lowest values reported in survivors — so that a true critical value is
 * never taken for a misreading.
 */
import { canonicalUnit, isUnitToken } from './units.js';

interface Limits {
  /** LOINC codes of the analyte (mass and molar forms, serum and blood). */
  codes: string[];
  /** Canonical unit (lower case, as canonicalUnit spells it) → [lowest, highest] possible value. */
  units: Record<string, [number, number]>;
}

const LIMITS: Limits[] = [
  { codes: ['2823-3', '6298-4'], units: { 'mmol/l': [0.5, 15], 'meq/l': [0.5, 15] } }, // potassium
  { codes: ['2951-2', '2947-0'], units: { 'mmol/l': [80, 220], 'meq/l': [80, 220] } }, // sodium
  { codes: ['2075-0', '2069-3'], units: { 'mmol/l': [50, 160], 'meq/l': [50, 160] } }, // chloride
  { codes: ['17861-6', '2000-8'], units: { 'mg/dl': [2, 25], 'mg/l': [20, 250], 'mmol/l': [0.5, 6] } }, // calcium
  { codes: ['19123-9', '2601-3'], units: { 'mg/dl': [0.2, 12], 'mg/l': [2, 120], 'mmol/l': [0.1, 5], 'meq/l': [0.2, 10] } }, // magnesium
  { codes: ['2777-1'], units: { 'mg/dl': [0.2, 25], 'mg/l': [2, 250], 'mmol/l': [0.05, 8] } }, // phosphate
  { codes: ['2345-7', '14749-6', '1558-6', '14771-0', '2339-0'], units: { 'mg/dl': [5, 3000], 'mmol/l': [0.3, 170], 'g/l': [0.05, 30] } }, // glucose
  { codes: ['2160-0', '14682-9'], units: { 'mg/dl': [0.05, 40], 'mg/l': [0.5, 400], 'umol/l': [5, 3500] } }, // creatinine
  { codes: ['3094-0'], units: { 'mg/dl': [0.5, 400] } }, // urea nitrogen
  { codes: ['718-7'], units: { 'g/dl': [1, 26], 'g/l': [10, 260], 'mmol/l': [0.6, 16] } }, // haemoglobin
  { codes: ['4544-3', '20570-8'], units: { '%': [3, 85], 'l/l': [0.03, 0.85] } }, // haematocrit
  { codes: ['787-2', '30428-7'], units: { fl: [40, 180] } }, // MCV
  { codes: ['785-6', '28539-5'], units: { pg: [8, 60] } }, // MCH
  { codes: ['786-4', '28540-3'], units: { 'g/dl': [15, 50], 'g/l': [150, 500], '%': [15, 50] } }, // MCHC
  { codes: ['789-8', '26453-1'], units: { '10^12/l': [0.3, 12], '10^6/ul': [0.3, 12], 'm/ul': [0.3, 12], '/pl': [0.3, 12] } }, // red cells
  { codes: ['4548-4', '17856-6'], units: { '%': [2, 25] } }, // HbA1c (NGSP)
  { codes: ['59261-8'], units: { 'mmol/mol': [5, 250] } }, // HbA1c (IFCC)
  { codes: ['1751-7'], units: { 'g/dl': [0.5, 8], 'g/l': [5, 80] } }, // albumin
  { codes: ['2885-2'], units: { 'g/dl': [1, 20], 'g/l': [10, 200] } }, // total protein
  { codes: ['1975-2', '14631-6'], units: { 'mg/dl': [0, 80], 'mg/l': [0, 800], 'umol/l': [0, 1400] } }, // bilirubin total
  { codes: ['6301-6', '34714-6'], units: { '': [0.5, 25], ratio: [0.5, 25], inr: [0.5, 25] } }, // INR
];

const BY_CODE = new Map<string, Limits>(LIMITS.flatMap((l) => l.codes.map((c) => [c, l] as const)));
/** Whether `value` lies outside the table's span for every unit it lists. */
const outsideEveryUnit = (limits: Limits, value: number): boolean => Object.values(limits.units).every(([low, high]) => value < low || value > high);

/** The analyte's span in `unit` (spelt as canonicalUnit spells it, in lower case), when the table lists that unit. */
const spanIn = (limits: Limits, unit: string): [number, number] | undefined => limits.units[canonicalUnit(unit).toLowerCase()];

/** Whether the table knows what human samples of the analyte with this LOINC code show. */
export const hasLimits = (loincCode: string | undefined): boolean => loincCode !== undefined && BY_CODE.has(loincCode);

/** Whether `value` is beyond what any human sample of the analyte shows in every unit the table has for it (a sodium of 4 is no sodium in mmol/L nor in mEq/L). */
export function impossibleInEveryUnit(loincCode: string | undefined, value: number): boolean {
  const limits = loincCode ? BY_CODE.get(loincCode) : undefined;
  return limits !== undefined && Number.isFinite(value) && outsideEveryUnit(limits, value);
}

/** Whether the table lists `unit` among the units the analyte with this LOINC code is reported in (false when it does not know the analyte). */
export function listedUnit(loincCode: string | undefined, unit: string): boolean {
  const limits = loincCode ? BY_CODE.get(loincCode) : undefined;
  return limits !== undefined && spanIn(limits, unit) !== undefined;
}

/**
 * Whether `value` in `unit` is beyond what any human sample of the analyte with this LOINC code
 * shows. False when the analyte or a known unit is not in the table: unknown is never impossible. A
 * unit that is no unit at all (OCR's "GENE" for a blank) says nothing of the scale: the value is then
 * impossible only when it is so in every unit the table has for the analyte.
 */
export function impossibleValue(loincCode: string | undefined, value: number, unit: string | undefined): boolean {
  const limits = loincCode ? BY_CODE.get(loincCode) : undefined;
  if (!limits || !Number.isFinite(value)) return false;
  if (unit !== undefined && unit.trim() !== '' && !isUnitToken(unit)) return outsideEveryUnit(limits, value);
  const range = spanIn(limits, unit ?? '');
  return range !== undefined && (value < range[0] || value > range[1]);
}

/**
 * Where the upper bound of a reference interval of the analyte lies in each unit, with a wide margin on
 * both sides of what labs print: a printed interval whose upper bound lies outside it ("39-105" for
 * leukocytes, "25-78" for urea in mmol/L, "34-70" for uric acid in mg/dL) lost its decimal separators to
 * OCR. Unlike LIMITS, this is about the interval, not the value: a leukocyte count of 57 /nL is possible,
 * an interval up to 105 /nL is not. Every unit the analyte is reported in is listed: with no unit read (or
 * a garbled one), a bound is out of place only when it is so in all of them.
 */
const REFERENCE_HIGH: Limits[] = [
  { codes: ['6690-2', '26464-8', '804-5'], units: { '10^9/l': [7, 25], '/nl': [7, 25], '10^3/ul': [7, 25], 'k/ul': [7, 25], 'g/l': [7, 25], '/ul': [7000, 25_000], '/mm3': [7000, 25_000] } }, // leukocytes
  { codes: ['22664-7', '3091-6', '14937-7'], units: { 'mmol/l': [5, 20], 'mg/dl': [15, 120], 'g/l': [0.15, 1.2] } }, // urea
  { codes: ['3084-1', '14933-6'], units: { 'mg/dl': [5, 12], 'mg/l': [50, 120], 'umol/l': [300, 700], 'mmol/l': [0.3, 0.7] } }, // uric acid
  { codes: ['2823-3', '6298-4'], units: { 'mmol/l': [4.5, 8], 'meq/l': [4.5, 8] } }, // potassium
  { codes: ['2345-7', '14749-6', '1558-6', '14771-0', '2339-0'], units: { 'mmol/l': [4.5, 15], 'mg/dl': [80, 250], 'g/l': [0.8, 2.5] } }, // glucose
];
const REFERENCE_BY_CODE = new Map<string, Limits>(REFERENCE_HIGH.flatMap((l) => l.codes.map((c) => [c, l] as const)));

/**
 * Whether `bound`, printed as the upper bound of a reference interval in `unit`, is out of place for any
 * such interval of the analyte (false for analytes and units the table does not know).
 */
export function impossibleReferenceBound(loincCode: string | undefined, bound: number, unit: string | undefined): boolean {
  const limits = loincCode ? REFERENCE_BY_CODE.get(loincCode) : undefined;
  if (!limits) return false;
  if (unit === undefined || unit.trim() === '' || !isUnitToken(unit)) return outsideEveryUnit(limits, bound);
  const limit = spanIn(limits, unit);
  return limit !== undefined && (bound < limit[0] || bound > limit[1]);
}
