/**
 * Sandbox results: plausible values for a lab test's expected results, made deterministically from
 * the order id so a simulated order always gets the same values. Reference ranges are typical adult
 * ranges for common LOINC codes; others fall back to a generic 0–100 range.
 */

interface Range {
  low: number;
  high: number;
  unit: string;
  decimals: number;
}

const RANGES: Record<string, Range> = {
  '2345-7': { low: 70, high: 99, unit: 'mg/dL', decimals: 0 }, // glucose
  '4548-4': { low: 4.0, high: 5.6, unit: '%', decimals: 1 }, // HbA1c
  '2093-3': { low: 125, high: 199, unit: 'mg/dL', decimals: 0 }, // total cholesterol
  '2085-9': { low: 40, high: 90, unit: 'mg/dL', decimals: 0 }, // HDL
  '13457-7': { low: 50, high: 99, unit: 'mg/dL', decimals: 0 }, // LDL calc
  '2571-8': { low: 40, high: 149, unit: 'mg/dL', decimals: 0 }, // triglycerides
  '3016-3': { low: 0.45, high: 4.5, unit: 'mIU/L', decimals: 2 }, // TSH
  '3024-7': { low: 0.8, high: 1.8, unit: 'ng/dL', decimals: 2 }, // free T4
  '1742-6': { low: 7, high: 55, unit: 'U/L', decimals: 0 }, // ALT
  '1920-8': { low: 8, high: 48, unit: 'U/L', decimals: 0 }, // AST
  '2160-0': { low: 0.6, high: 1.3, unit: 'mg/dL', decimals: 2 }, // creatinine
  '3094-0': { low: 7, high: 20, unit: 'mg/dL', decimals: 0 }, // BUN
  '2951-2': { low: 135, high: 145, unit: 'mmol/L', decimals: 0 }, // sodium
  '2823-3': { low: 3.5, high: 5.1, unit: 'mmol/L', decimals: 1 }, // potassium
  '718-7': { low: 12, high: 17.5, unit: 'g/dL', decimals: 1 }, // hemoglobin
  '6690-2': { low: 4.5, high: 11, unit: '10*3/uL', decimals: 1 }, // WBC
  '777-3': { low: 150, high: 400, unit: '10*3/uL', decimals: 0 }, // platelets
  '2276-4': { low: 30, high: 400, unit: 'ng/mL', decimals: 0 }, // ferritin
  '1989-3': { low: 30, high: 100, unit: 'ng/mL', decimals: 0 }, // vitamin D
  '2132-9': { low: 200, high: 900, unit: 'pg/mL', decimals: 0 }, // B12
  '30522-7': { low: 0.1, high: 3.0, unit: 'mg/L', decimals: 1 }, // hs-CRP
  '2986-8': { low: 264, high: 916, unit: 'ng/dL', decimals: 0 }, // testosterone
  '2857-1': { low: 0, high: 4, unit: 'ng/mL', decimals: 2 }, // PSA
};
const GENERIC: Range = { low: 0, high: 100, unit: 'unit', decimals: 1 };

export interface ExpectedResult {
  name: string;
  slug: string;
  loincCode: string | null;
  loincSlug: string | null;
  unit: string | null;
  providerId: string | null;
}

export type ResultKind = 'numeric' | 'range' | 'comment' | 'coded_value';

/** A small deterministic PRNG (mulberry32) seeded from a string. */
function seeded(seedText: string): () => number {
  let seed = 0;
  for (const ch of seedText) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) | 0;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function simulateResults(
  orderId: string,
  expected: ExpectedResult[],
  options: { interpretation: 'normal' | 'abnormal' | 'critical'; resultTypes: ResultKind[] | null; hasMissingResults: boolean },
) {
  const rand = seeded(orderId);
  const kinds: ResultKind[] = options.resultTypes?.length ? options.resultTypes : ['numeric'];
  const present = options.hasMissingResults && expected.length > 1 ? expected.slice(0, -1) : expected;
  const missing = options.hasMissingResults && expected.length > 1 ? expected.slice(-1) : [];
  const results = present.map((exp, i) => {
    const range = (exp.loincCode && RANGES[exp.loincCode]) || GENERIC;
    const kind = kinds[i % kinds.length]!;
    // The first result carries the requested abnormality; the rest stay in range.
    const out = i === 0 && options.interpretation !== 'normal';
    const span = range.high - range.low;
    const value = out
      ? range.high + span * (options.interpretation === 'critical' ? 1.5 : 0.2)
      : range.low + span * (0.15 + 0.7 * rand());
    const shown = value.toFixed(range.decimals);
    const interpretation = out ? (options.interpretation === 'critical' ? 'critical' : 'abnormal') : 'normal';
    const base = {
      name: exp.name,
      slug: exp.slug,
      unit: exp.unit ?? range.unit,
      reference_range: `${range.low}-${range.high}`,
      min_range_value: range.low,
      max_range_value: range.high,
      is_above_max_range: out,
      is_below_min_range: false,
      interpretation,
      loinc: exp.loincCode,
      loinc_slug: exp.loincSlug,
      provider_id: exp.providerId,
    };
    switch (kind) {
      case 'numeric':
        return { ...base, result: shown, type: 'numeric' as const };
      case 'range':
        return { ...base, result: out ? `>${range.high}` : `<${range.high}`, type: 'range' as const };
      case 'comment':
        return { ...base, result: out ? 'Result outside the reference range.' : 'Within normal limits.', type: 'comment' as const };
      case 'coded_value':
        return { ...base, result: out ? 'POSITIVE' : 'NEGATIVE', type: 'coded_value' as const };
    }
  });
  return {
    results,
    missingResults: missing.map((m) => ({ name: m.name, slug: m.slug, inferred_failure_type: 'quantity_not_sufficient_failure', note: 'Simulated missing result' })),
  };
}
