/**
 * Where laboratories put the bounds of the reference interval of common analytes, per unit: the printed lower
 * bound falls in one window and the upper bound in another, across labs, sexes and adult age bands. A result
 * whose name OCR garbled past repair ("ab" for Hb, "woe" for WCC heading a cumulative table's column, "W7l1" for
 * Hemácias) still prints its unit and interval; when exactly one analyte of this table has that unit and an
 * interval whose two bounds both fall in its windows, the row is that analyte. Only analytes whose intervals
 * set them apart in their unit are listed (liver enzymes in U/L overlap each other, one-sided limits say too
 * little), and both bounds and the unit must be read: a guess is never made from a value.
 */
import { loincEntry } from './loinc-table.js';
import { foldText } from './text.js';
import { canonicalUnit } from './units.js';

type Window = [number, number];
interface Interval {
  code: string;
  /** Canonical unit key (see unitKey) → [window of the lower bound, window of the upper bound]. */
  units: Record<string, [Window, Window]>;
}

const TABLE: Interval[] = [
  { code: '718-7', units: { 'g/l': [[110, 140], [150, 185]], 'g/dl': [[11, 14], [15, 18.5]] } }, // haemoglobin
  { code: '6690-2', units: { '10^9/l': [[3.5, 4.6], [9.5, 11.5]] } }, // leukocytes
  { code: '777-3', units: { '10^9/l': [[125, 180], [350, 450]], '/ul': [[125_000, 180_000], [350_000, 450_000]] } }, // platelets
  { code: '789-8', units: { '10^12/l': [[3.7, 4.7], [5.0, 6.2]] } }, // erythrocytes
  { code: '787-2', units: { fl: [[76, 84], [94, 101]] } }, // MCV
  { code: '785-6', units: { pg: [[25, 28], [31, 35]] } }, // MCH
  { code: '786-4', units: { 'g/l': [[300, 335], [340, 370]], 'g/dl': [[30, 33.5], [34, 37]] } }, // MCHC
  { code: '751-8', units: { '10^9/l': [[1.5, 2.5], [6.3, 8.0]] } }, // neutrophils, absolute
  { code: '731-0', units: { '10^9/l': [[0.8, 1.5], [3.0, 4.8]] } }, // lymphocytes, absolute
  { code: '4544-3', units: { '%': [[34, 42], [45, 54]], 'l/l': [[0.34, 0.42], [0.45, 0.54]] } }, // haematocrit
  { code: '788-0', units: { '%': [[10.5, 12.2], [14, 16]] } }, // RDW
  { code: '2823-3', units: { 'mmol/l': [[3.3, 3.8], [4.5, 5.5]] } }, // potassium
  { code: '2951-2', units: { 'mmol/l': [[132, 138], [143, 148]] } }, // sodium
  { code: '2075-0', units: { 'mmol/l': [[95, 102], [105, 112]] } }, // chloride
  { code: '1963-8', units: { 'mmol/l': [[20, 24], [26, 33]] } }, // bicarbonate
  { code: '17861-6', units: { 'mmol/l': [[2.0, 2.3], [2.5, 2.75]], 'mg/dl': [[8.4, 9.0], [10.0, 10.8]] } }, // calcium
  { code: '14682-9', units: { 'umol/l': [[40, 80], [84, 130]] } }, // creatinine (molar)
  { code: '2160-0', units: { 'mg/dl': [[0.5, 0.8], [1.0, 1.4]] } }, // creatinine (mass)
  { code: '22664-7', units: { 'mmol/l': [[2.0, 3.6], [6.4, 8.5]] } }, // urea
  { code: '2345-7', units: { 'mmol/l': [[3.3, 4.2], [5.5, 6.4]], 'mg/dl': [[60, 75], [99, 110]] } }, // glucose
  { code: '1751-7', units: { 'g/l': [[32, 40], [45, 55]], 'g/dl': [[3.2, 4.0], [4.5, 5.5]] } }, // albumin
  { code: '2885-2', units: { 'g/l': [[57, 66], [78, 87]], 'g/dl': [[5.7, 6.6], [7.8, 8.7]] } }, // total protein
  { code: '6768-6', units: { 'u/l': [[30, 56], [100, 150]] } }, // alkaline phosphatase
  { code: '3016-3', units: { 'mu/l': [[0.25, 0.5], [3.5, 5.5]] } }, // TSH
];

/** Spellings of one unit, as canonicalUnit leaves them (lower case), → the key the table uses. */
const SAME_UNIT: Record<string, string> = {
  '10^3/ul': '10^9/l',
  'k/ul': '10^9/l',
  '/nl': '10^9/l',
  'thou/ul': '10^9/l',
  '10^3/mm3': '10^9/l',
  '10^6/ul': '10^12/l',
  'm/ul': '10^12/l',
  '/pl': '10^12/l',
  '10^6/mm3': '10^12/l',
  'milhoes/mm3': '10^12/l',
  '/mm3': '/ul',
  '/cumm': '/ul',
  'millones/mm3': '10^12/l',
  'meq/l': 'mmol/l',
  'miu/l': 'mu/l',
  'uiu/ml': 'mu/l',
  'uu/ml': 'mu/l',
  'miu/ml': 'mu/l',
};

/** The table's key for a printed unit ("x10^9/L" and "10^3/µL" → "10^9/l", "milhões/mm³" → "10^12/l"). */
function unitKey(unit: string): string {
  const u = foldText(canonicalUnit(unit));
  return SAME_UNIT[u] ?? u;
}

const within = (n: number, [lo, hi]: Window): boolean => n >= lo && n <= hi;

/**
 * The analyte (LOINC code and the table's display name) whose reference interval in `unit` the bounds `min`–`max`
 * are, when exactly one analyte of the table fits; undefined otherwise.
 */
export function analyteOfInterval(unit: string | undefined, min: number | undefined, max: number | undefined): { code: string; name: string } | undefined {
  if (unit === undefined || unit.trim() === '' || min === undefined || max === undefined || !(min < max)) return undefined;
  const key = unitKey(unit);
  const fits = TABLE.filter((a) => {
    const w = a.units[key];
    return w !== undefined && within(min, w[0]) && within(max, w[1]);
  });
  if (fits.length !== 1) return undefined;
  const entry = loincEntry(fits[0]!.code);
  return entry ? { code: entry.code, name: entry.display } : undefined;
}
