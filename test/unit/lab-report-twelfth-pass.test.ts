import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../domain/lab-report/metadata.js';
import { byName, line, parseLines } from '../support/lab-report-lines.js';

// Issue 14, twelfth pass: a key-value block per test, a date whose month is a cell of its own, Buddhist-era dates.
const parse = (texts: string[]) => parseLines(texts.map((t, i) => line(100 + 14 * i, t)));

describe('a key-value block per test ("Test:", "Result:", "Units:", "Reference:", "Flag:")', () => {
  const blocks = [
    'Test Results — Portal export',
    'Test: Sodium',
    'Result: 151',
    'Units: mmol/L',
    'Reference: 135-145',
    'Flag: High',
    'Status: Final',
    'Test: Potassium',
    'Result: 4.2',
    'Units: mmol/L',
    'Reference: 3.5-5.1',
    'Status: Final',
    'Test: Ferritin',
    'Result: 9',
    'Flag: Low',
    'Reference: 15-150',
    'Units: ng/mL',
  ];

  it('gives each result the unit, range and flag of its own block, and reads those lines as no result', () => {
    const results = parse(blocks);
    expect(results.map((r) => r.test_name)).toEqual(['Sodium', 'Potassium', 'Ferritin']);
    expect(byName(results, 'Sodium')).toMatchObject({ value: '151', units: 'mmol/L', min_reference_range: 135, max_reference_range: 145, interpretation: 'abnormal', is_above_max_range: true });
    expect(byName(results, 'Potassium')).toMatchObject({ value: '4.2', units: 'mmol/L', min_reference_range: 3.5, max_reference_range: 5.1, interpretation: 'normal' });
    expect(byName(results, 'Potassium').flag).toBeUndefined();
    // The flag before the range: the range, given later, keeps the flag's judgement.
    expect(byName(results, 'Ferritin')).toMatchObject({ units: 'ng/mL', min_reference_range: 15, interpretation: 'abnormal', is_below_min_range: true });
  });

  it('negative: a "Units:" line that holds no unit, a "Flag:" that is no flag, a "Reference:" that is an accession number', () => {
    const results = parse(['Test: Sodium', 'Result: 140', 'Units: see note', 'Flag: pending review', 'Reference: 24-118833']);
    expect(results).toHaveLength(1);
    expect(results[0]!.units ?? '').toBe('');
    expect(results[0]!.flag).toBeUndefined();
    expect(results[0]!.reference_range_text ?? '').toBe('');
  });

  it('negative: a block is over after a line with a number, so a later "Units:" line gives nothing to it', () => {
    const results = parse(['Test: Sodium', 'Result: 140', 'Collected 08:15 on ward 4', 'Units: mmol/L']);
    expect(results[0]!.units ?? '').toBe('');
  });
});

describe('dates in a monospaced header and in the Buddhist era', () => {
  const texts = (...t: string[]) => t.map((text) => ({ text, page: 1 }));
  it('reads a birth date whose month name stands in its own cell ("DOB:   MAR   03,1956")', () => {
    expect(extractMetadata(texts('SMITH,ANN   DOB:   MAR   03,1956   AGE:   68')).dob).toBe('1956-03-03');
  });
  it('negative: a month name alone with no day after it is no date', () => {
    expect(extractMetadata(texts('DOB:   MAR   AGE:   68')).dob).toBe('');
  });
  it('reads a Thai report\'s Buddhist-era birth date', () => {
    expect(extractMetadata(texts('Birth Date : 21/06/2530   HN : 1234567')).dob).toBe('1987-06-21');
  });
});
