import { describe, expect, it } from 'vitest';
import { parseDate } from '../../domain/lab-report/dates.js';

describe('dates: Buddhist era and terminal month names', () => {
  it('reads a Buddhist-era year (Thai documents) as the common era, 543 years earlier', () => {
    expect(parseDate('Birth Date : 02/11/2521', { isBirthDate: true, order: 'dmy' })).toBe('1978-11-02');
    expect(parseDate('Reported 2568-01-15')).toBe('2025-01-15');
    expect(parseDate('29/02/2567', { order: 'dmy' })).toBe('2024-02-29'); // 2024 is a leap year, so the day is checked after the shift
  });

  it('still refuses a year outside both eras', () => {
    expect(parseDate('01/02/2300', { order: 'dmy' })).toBe('');
    expect(parseDate('01/02/2800', { order: 'dmy' })).toBe('');
  });

  it('reads a month name with the year glued to the comma ("JAN 09,1971")', () => {
    expect(parseDate('DOB: JAN 09,1971', { isBirthDate: true })).toBe('1971-01-09');
    expect(parseDate('Sep 30, 2024')).toBe('2024-09-30');
  });
});
