import { describe, expect, it } from 'vitest';
import { parseLabReport } from '../../domain/lab-report/parse.js';
import { type ExtractedPage, type ParsedResult, type TextLine } from '../../domain/lab-report/types.js';

// Synthetic pages, built by hand: plain text lines (columns separated by runs of spaces, as a text
// layer or OCR gives them) or lines with positioned cells (single-spaced text plus x per cell).
const text = (t: string, y = 0): TextLine => ({ text: t, y });
const cells = (y: number, ...parts: [number, string][]): TextLine => ({ text: parts.map(([, t]) => t).join(' '), y, cells: parts.map(([x, t]) => ({ x, text: t })) });
const page = (n: number, lines: (string | TextLine)[], source: 'text_layer' | 'ocr' = 'text_layer'): ExtractedPage => ({
  page: n,
  source,
  lines: lines.map((l, i) => (typeof l === 'string' ? text(l, i * 14) : { ...l, y: l.y || i * 14 })),
});
const parse = (...pages: ExtractedPage[]) => parseLabReport(pages, { currentYear: 2025 });
const byName = (results: ParsedResult[], name: string): ParsedResult => {
  const r = results.find((x) => x.test_name === name);
  if (!r) throw new Error(`no result "${name}" in ${results.map((x) => x.test_name).join(', ')}`);
  return r;
};
const core = (r: ParsedResult) => ({ value: r.value, units: r.units, min: r.min_reference_range, max: r.max_reference_range, flag: r.flag, interpretation: r.interpretation });

describe('parseLabReport: columns in any order', () => {
  const rows = {
    name: ['Glucose', 'Hemoglobin', 'Potassium'],
    result: ['105', '11.9', '4.2'],
    unit: ['mg/dL', 'g/dL', 'mmol/L'],
    range: ['65-99', '13.0-17.7', '3.5-5.1'],
    flag: ['H', 'L', ''],
  } as const;
  type Col = keyof typeof rows;
  const headerWord: Record<Col, string> = { name: 'Test', result: 'Result', unit: 'Units', range: 'Reference Range', flag: 'Flag' };

  it.each([
    [['name', 'result', 'flag', 'unit', 'range']],
    [['name', 'range', 'result', 'unit', 'flag']],
    [['name', 'unit', 'range', 'result', 'flag']],
    [['name', 'flag', 'result', 'range', 'unit']],
  ] as Col[][][])('with positioned cells: %j', (order) => {
    const xs = order.map((_, i) => 20 + i * 110);
    const header = cells(0, ...order.map((c, i) => [xs[i]!, headerWord[c]] as [number, string]));
    const body = [0, 1, 2].map((r) =>
      cells(
        0,
        ...order.filter((c) => rows[c][r] !== '').map((c) => [xs[order.indexOf(c)]! + (c === 'result' ? 8 : 0), rows[c][r]] as [number, string]),
      ),
    );
    const { results } = parse(page(1, [header, ...body]));
    expect(results.map((r) => r.test_name)).toEqual(['Glucose', 'Hemoglobin', 'Potassium']);
    expect(core(results[0]!)).toEqual({ value: '105', units: 'mg/dL', min: 65, max: 99, flag: 'H', interpretation: 'abnormal' });
    expect(core(results[1]!)).toEqual({ value: '11.9', units: 'g/dL', min: 13, max: 17.7, flag: 'L', interpretation: 'abnormal' });
    expect(core(results[2]!)).toEqual({ value: '4.2', units: 'mmol/L', min: 3.5, max: 5.1, flag: undefined, interpretation: 'normal' });
  });

  it('with one cell per word, a multi-word header and the range column before the result', () => {
    const { results } = parse(
      page(1, [
        cells(1, [20, 'Test'], [150, 'Reference'], [205, 'Range'], [300, 'Current'], [345, 'Result'], [390, 'and'], [410, 'Flag'], [480, 'Units']),
        cells(2, [20, 'Glucose'], [150, '65-99'], [305, '105'], [340, 'High'], [480, 'mg/dL']),
        cells(3, [20, 'Hemoglobin'], [60, 'A1c'], [150, '4.8-5.6'], [305, '5.4'], [480, '%']),
        cells(4, [20, 'Sodium'], [150, '134'], [170, '-'], [180, '144'], [305, '141'], [480, 'mmol/L']),
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units, r.reference_range_text, r.flag])).toEqual([
      ['Glucose', '105', 'mg/dL', '65-99', 'High'],
      ['Hemoglobin A1c', '5.4', '%', '4.8-5.6', undefined],
      ['Sodium', '141', 'mmol/L', '134 - 144', undefined],
    ]);
  });

  it('a header with one unfamiliar column still lays out the rows', () => {
    const { results } = parse(page(1, ['Analyte   Result   Units   Reference Range   Accreditation', 'Ferritin   12   ng/mL   30-400   ISO 15189']));
    expect(results[0]).toMatchObject({ test_name: 'Ferritin', value: '12', units: 'ng/mL', min_reference_range: 30, interpretation: 'abnormal', is_below_min_range: true });
  });

  it('a LabCorp-style text report: footnote numbers and a previous-result column are not values', () => {
    const { results } = parse(
      page(1, [
        'Test                 Current Result and Flag    Previous Result and Date    Units     Reference Interval',
        'Glucose 01           105   High                 98   01/02/2023            mg/dL     65-99',
        'BUN 01               14                         12   01/02/2023            mg/dL     6-24',
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.flag, r.reference_range_text])).toEqual([
      ['Glucose', '105', 'High', '65-99'],
      ['BUN', '14', undefined, '6-24'],
    ]);
  });

  it('a Quest-style report: In Range / Out Of Range columns and a trailing site code', () => {
    const { results } = parse(
      page(1, [
        'Test Name                In Range     Out Of Range     Reference Range     Lab',
        'GLUCOSE                                105 H            65-99 mg/dL         EN',
        'CHOLESTEROL, TOTAL       185                           <200 mg/dL          EN',
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units, r.flag, r.interpretation])).toEqual([
      ['GLUCOSE', '105', 'mg/dL', 'H', 'abnormal'],
      ['CHOLESTEROL, TOTAL', '185', 'mg/dL', undefined, 'normal'],
    ]);
  });

  it('without a header, from token patterns (range before value, unit after range)', () => {
    const { results } = parse(page(1, ['Glucose   65 - 99   105   mg/dL   H', 'Cholesterol, Total   <200   185 mg/dL', 'Sodium 141 mmol/L 134-144']));
    expect(core(byName(results, 'Glucose'))).toEqual({ value: '105', units: 'mg/dL', min: 65, max: 99, flag: 'H', interpretation: 'abnormal' });
    expect(core(byName(results, 'Cholesterol, Total'))).toEqual({ value: '185', units: 'mg/dL', min: undefined, max: 200, flag: undefined, interpretation: 'normal' });
    expect(core(byName(results, 'Sodium'))).toMatchObject({ value: '141', min: 134, max: 144, interpretation: 'normal' });
  });

  it('with a text header and rows of the same shape, by column order', () => {
    const { results } = parse(page(1, ['Analyte   Reference Range   Result   Units', 'eGFR   >59   >90   mL/min/1.73m2', 'CRP   <5.0   <0.5   mg/L']));
    expect(byName(results, 'eGFR')).toMatchObject({ value: '>90', type: 'range', min_reference_range: 59, interpretation: 'normal' });
    expect(byName(results, 'CRP')).toMatchObject({ value: '<0.5', max_reference_range: 5, interpretation: 'normal' });
  });
});

describe('parseLabReport: values, ranges and flags', () => {
  it('reads every range form and keeps the printed text', () => {
    const { results } = parse(
      page(1, [
        'Albumin   4.1   g/dL   3.5 - 5.3',
        'Creatinine   0.9   mg/dL   0.5–1.2',
        'HDL Cholesterol   45   mg/dL   >39',
        'Hemoglobin A1c   5.4   %   <=5.6',
        'Triglycerides   120   mg/dL   < 150',
        'CRP   2   mg/L   up to 5',
        'Hemoglobin   14.1   g/dL   M: 13-17 F: 12-16',
      ]),
    );
    expect(byName(results, 'Albumin')).toMatchObject({ reference_range_text: '3.5 - 5.3', min_reference_range: 3.5, max_reference_range: 5.3 });
    expect(byName(results, 'Creatinine')).toMatchObject({ reference_range_text: '0.5–1.2', min_reference_range: 0.5, max_reference_range: 1.2 });
    expect(byName(results, 'HDL Cholesterol')).toMatchObject({ reference_range_text: '>39', min_reference_range: 39, is_below_min_range: false });
    expect(byName(results, 'Hemoglobin A1c')).toMatchObject({ reference_range_text: '<=5.6', max_reference_range: 5.6, interpretation: 'normal' });
    expect(byName(results, 'Triglycerides')).toMatchObject({ max_reference_range: 150 });
    expect(byName(results, 'CRP')).toMatchObject({ reference_range_text: 'up to 5', max_reference_range: 5 });
    const hb = byName(results, 'Hemoglobin');
    expect(hb.reference_range_text).toBe('M: 13-17 F: 12-16');
    expect(hb.min_reference_range).toBeUndefined();
    expect(hb.interpretation).toBeUndefined();
  });

  it.each([
    ['H', 'abnormal'],
    ['L', 'abnormal'],
    ['HH', 'critical'],
    ['LL', 'critical'],
    ['A', 'abnormal'],
    ['High', 'abnormal'],
    ['Low', 'abnormal'],
    ['critical', 'critical'],
    ['!!', 'critical'],
  ])('flag %s → %s', (flag, interpretation) => {
    const { results } = parse(page(1, [`Potassium   4.2   ${flag}   mmol/L   3.5-5.1`]));
    expect(results[0]).toMatchObject({ value: '4.2', flag, interpretation });
  });

  it('reads qualitative results and judges them against text ranges', () => {
    const { results } = parse(
      page(1, ['URINALYSIS', 'Color   Yellow   Yellow', 'Glucose   Negative   Negative', 'Nitrite   Positive   Negative', 'Protein   Trace   Negative', 'Ketones   Negative']),
    );
    expect(byName(results, 'Color')).toMatchObject({ value: 'Yellow', type: 'comment', interpretation: 'normal' });
    expect(byName(results, 'Glucose')).toMatchObject({ value: 'Negative', type: 'boolean', interpretation: 'normal', source_panel_name: 'URINALYSIS' });
    expect(byName(results, 'Glucose').loinc_matches![0]!.loinc_code).toBe('25428-4');
    expect(byName(results, 'Nitrite')).toMatchObject({ value: 'Positive', interpretation: 'abnormal' });
    expect(byName(results, 'Protein').interpretation).toBeUndefined();
    expect(byName(results, 'Ketones').interpretation).toBeUndefined();
  });

  it('keeps "<5" values as their own kind, percentages and titres', () => {
    const { results } = parse(page(1, ['Troponin I   <0.01   ng/mL   0.00-0.04', 'Transferrin saturation   35%   15-50', 'ANA titer   1:80   <1:40']));
    expect(byName(results, 'Troponin I')).toMatchObject({ value: '<0.01', type: 'range', interpretation: 'normal' });
    expect(byName(results, 'Transferrin saturation')).toMatchObject({ value: '35', type: 'percentage' });
    expect(byName(results, 'ANA titer')).toMatchObject({ value: '1:80', type: 'ratio' });
  });

  it('does not guess an interpretation without flag or range', () => {
    const { results } = parse(page(1, ['Vitamin B12   450   pg/mL', 'Ferritin   85   ng/mL   see note']));
    expect(byName(results, 'Vitamin B12').interpretation).toBeUndefined();
    expect(byName(results, 'Vitamin B12').is_above_max_range).toBeUndefined();
    expect(byName(results, 'Ferritin').interpretation).toBeUndefined();
  });

  it('keeps names that contain numbers whole', () => {
    const { results } = parse(page(1, ['CA 19-9   12   U/mL   <35', 'CA 125 30 U/mL 0-35', 'Vitamin B12 450 pg/mL 200-900', '25-OH Vitamin D   32   ng/mL   30-100']));
    expect(results.map((r) => [r.test_name, r.value])).toEqual([
      ['CA 19-9', '12'],
      ['CA 125', '30'],
      ['Vitamin B12', '450'],
      ['25-OH Vitamin D', '32'],
    ]);
  });
});

describe('parseLabReport: German and French reports', () => {
  it('reads a German report with decimal commas', () => {
    const report = parse(
      page(1, [
        'Labor Dr. Müller MVZ',
        'Name: Mustermann, Max     Geburtsdatum: 12.03.1980',
        'Entnahme: 05.02.2024   Auftragsnummer: 2402051234',
        'Klinische Chemie',
        'Untersuchung   Ergebnis   Einheit   Referenzbereich',
        'Natrium   139   mmol/l   135 - 145',
        'Kalium   5,6 +   mmol/l   3,5 - 5,1',
        'GPT (ALT)   28   U/l   < 50',
        'Blutbild',
        'Leukozyten   6,4   /nl   4,0 - 10,0',
        'Hämoglobin   14,2   g/dl   13,5 - 17,5',
        'Thrombozyten   1.234   /nl   150 - 400',
      ]),
    );
    expect(report.metadata).toMatchObject({ patient_first_name: 'Max', patient_last_name: 'Mustermann', dob: '1980-03-12', lab_name: 'Labor Dr. Müller MVZ', date_collected: '2024-02-05', specimen_number: '2402051234' });
    expect(byName(report.results, 'Kalium')).toMatchObject({ value: '5.6', flag: '+', interpretation: 'abnormal', min_reference_range: 3.5, max_reference_range: 5.1 });
    expect(byName(report.results, 'Leukozyten')).toMatchObject({ value: '6.4', units: '/nl', source_panel_name: 'Blutbild' });
    expect(byName(report.results, 'Leukozyten').loinc_matches![0]!.loinc_code).toBe('6690-2');
    expect(byName(report.results, 'GPT (ALT)').loinc_matches![0]!.loinc_code).toBe('1742-6');
    expect(byName(report.results, 'Natrium').source_panel_name).toBe('Klinische Chemie');
  });

  it('reads a French report', () => {
    const report = parse(
      page(1, [
        'Laboratoire de Biologie Médicale Cerba',
        'Nom : DUPONT   Prénom : Marie   Date de naissance : 07/11/1962',
        'Prélevé le : 14/02/2024',
        'HEMATOLOGIE',
        'Examen   Résultat   Unités   Valeurs de référence',
        'Hématies   4,52   T/L   3,80 - 5,80',
        'Leucocytes   7,8   G/L   4,0 - 10,0',
        'Polynucléaires neutrophiles   55,2   %   40 - 75',
        'BIOCHIMIE',
        'Glycémie à jeun   1,10   g/L   0,70 - 1,05   H',
      ]),
    );
    expect(report.metadata).toMatchObject({ patient_first_name: 'Marie', patient_last_name: 'DUPONT', dob: '1962-11-07', date_collected: '2024-02-14' });
    expect(byName(report.results, 'Leucocytes').loinc_matches![0]!.loinc_code).toBe('6690-2');
    expect(byName(report.results, 'Polynucléaires neutrophiles').loinc_matches![0]!.loinc_code).toBe('770-8');
    expect(byName(report.results, 'Glycémie à jeun')).toMatchObject({ value: '1.10', flag: 'H', interpretation: 'abnormal', source_panel_name: 'BIOCHIMIE' });
  });
});

describe('parseLabReport: multi-page reports and page furniture', () => {
  const banner = ['ACME CLINICAL LABORATORIES', 'Patient: DOE, JOHN   DOB: 04/23/1975   Collected: 03/14/2024'];
  const report = parse(
    page(1, [...banner, 'COMPLETE BLOOD COUNT', 'Test   Result   Units   Reference Range', 'WBC   7.2   x10E3/uL   3.4 - 10.8', 'RBC   4.8   x10E6/uL   4.14 - 5.80', 'Page 1 of 2']),
    page(2, [...banner, 'Test   Result   Units   Reference Range', 'Platelets   250   x10E3/uL   150 - 379', 'LIPID PANEL', 'Cholesterol, Total   185   mg/dL   100 - 199', '123 Main Street, Suite 200, Springfield', 'Phone: (555) 123-4567', 'Page 2 of 2']),
  );

  it('continues the panel across the page break and starts the next one', () => {
    expect(report.results.map((r) => [r.test_name, r.source_panel_name, r.page])).toEqual([
      ['WBC', 'COMPLETE BLOOD COUNT', 1],
      ['RBC', 'COMPLETE BLOOD COUNT', 1],
      ['Platelets', 'COMPLETE BLOOD COUNT', 2],
      ['Cholesterol, Total', 'LIPID PANEL', 2],
    ]);
  });

  it('takes no results from banners, addresses, phone numbers or page footers', () => {
    expect(report.results).toHaveLength(4);
    expect(report.metadata).toMatchObject({ patient_first_name: 'JOHN', patient_last_name: 'DOE', dob: '1975-04-23', date_collected: '2024-03-14', lab_name: 'ACME CLINICAL LABORATORIES' });
  });

  it('does not take the letterhead for a panel heading', () => {
    const { results } = parse(page(1, ['ACME CLINICAL LABORATORIES', 'Patient: Jane Roe', 'Glucose   95   mg/dL   70-99']));
    expect(results[0]!.source_panel_name).toBeUndefined();
  });

  it('keeps a line printed in a page body even where it also falls at the foot of two pages', () => {
    // One block per exam (a Brazilian laudo): "Valores de referência:" under every result, the last exam of each
    // page at its foot. Repeated at the edge of both pages, but also between them: content, not furniture.
    const exam = (name: string, result: string, range: string) => [name, 'Material: Soro', `Resultado: ${result}`, 'Valores de referência:', range];
    const { results } = parse(
      page(1, ['LABORATÓRIO SÃO LUCAS', 'Paciente: JOÃO SOUZA', ...exam('GLICOSE', '84 mg/dL', '70 a 99 mg/dL'), ...exam('UREIA', '27 mg/dL', '15 a 45 mg/dL'), ...exam('TGO (AST)', '33 U/L', 'Desejável: inferior a 40 U/L'), 'Página 1 de 2']),
      page(2, ['LABORATÓRIO SÃO LUCAS', 'Paciente: JOÃO SOUZA', ...exam('TSH', '3,29 µUI/mL', '0,27 a 4,20 µUI/mL'), ...exam('FERRITINA', '166 ng/mL', '30 a 400 ng/mL'), ...exam('VITAMINA B12', '399 pg/mL', '197 a 771 pg/mL'), 'Página 2 de 2']),
    );
    expect(results.map((r) => [r.test_name, r.reference_range_text])).toEqual([
      ['GLICOSE', '70 a 99'],
      ['UREIA', '15 a 45'],
      ['TGO (AST)', 'inferior a 40'],
      ['TSH', '0,27 a 4,20'],
      ['FERRITINA', '30 a 400'],
      ['VITAMINA B12', '197 a 771'],
    ]);
  });

  it('ignores dates, times and comments in result positions', () => {
    const { results } = parse(page(1, ['Glucose   95   mg/dL   70-99', 'Collected 03/14/2024 08:30', 'Comment: Fasting specimen. Results verified on 03/15/2024.', 'Reference ranges may vary by method.']));
    expect(results.map((r) => r.test_name)).toEqual(['Glucose']);
  });
});

describe('parseLabReport: OCR-like lines (single spaces, no cells)', () => {
  it('splits name, value, unit, range and flag by token pattern', () => {
    const { results } = parse(
      page(
        1,
        ['Hemoglobin 11.9 g/dL 13.0-17.7 L', 'Neutrophils 62 % 40-74', 'Neutrophils (Absolute) 4.5 x10E3/uL 1.4-7.0', 'Specific Gravity 1.015 1.005-1.030', 'Bacteria None seen None seen /hpf', 'RBC 0-2 /hpf 0-2'],
        'ocr',
      ),
    );
    expect(core(byName(results, 'Hemoglobin'))).toEqual({ value: '11.9', units: 'g/dL', min: 13, max: 17.7, flag: 'L', interpretation: 'abnormal' });
    expect(byName(results, 'Neutrophils').loinc_matches![0]!.loinc_code).toBe('770-8');
    expect(byName(results, 'Neutrophils (Absolute)').loinc_matches![0]!.loinc_code).toBe('751-8');
    expect(byName(results, 'Specific Gravity')).toMatchObject({ value: '1.015', min_reference_range: 1.005, max_reference_range: 1.03 });
    expect(byName(results, 'Bacteria')).toMatchObject({ value: 'None seen', interpretation: 'normal' });
    expect(byName(results, 'RBC')).toMatchObject({ value: '0-2', type: 'range', units: '/hpf' });
  });

  it('leaves a row out rather than reading a wrong value', () => {
    const { results } = parse(page(1, ['Suite 400 Springfield', 'Account 123456', 'Fax 555 1234', 'Age 45']));
    expect(results).toEqual([]);
  });
});

describe('parseLabReport: ranges split over cells, inline labels, legends', () => {
  it('joins a range whose pieces a wide font put in separate cells, and strips its brackets', () => {
    const { results } = parse(
      page(1, [
        cells(1, [50, 'Haemoglobin'], [232, '149'], [282, 'g/L'], [372, '(130'], [398, '-'], [408, '180)']),
        cells(2, [50, 'Red cell count'], [232, '6.89 H'], [282, 'x10^12/L'], [372, '(4.50'], [403, '-'], [413, '6.50)']),
        cells(3, [50, 'Sodium'], [232, '138'], [282, 'mmol/L'], [372, '133 -'], [398, '146']),
        cells(4, [50, 'Potassium'], [232, '4.5'], [282, 'mmol/L'], [372, '3.5'], [392, '- 5.3']),
        cells(5, [50, 'Base Excess'], [232, '-2.0'], [282, 'mmol/L'], [372, '-3'], [392, '-'], [403, '3']),
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units, r.reference_range_text, r.min_reference_range, r.max_reference_range, r.flag])).toEqual([
      ['Haemoglobin', '149', 'g/L', '130 - 180', 130, 180, undefined],
      ['Red cell count', '6.89', 'x10^12/L', '4.50 - 6.50', 4.5, 6.5, 'H'],
      ['Sodium', '138', 'mmol/L', '133 - 146', 133, 146, undefined],
      ['Potassium', '4.5', 'mmol/L', '3.5 - 5.3', 3.5, 5.3, undefined],
      ['Base Excess', '-2.0', 'mmol/L', '-3 - 3', -3, 3, undefined],
    ]);
  });

  it('does not join a value, an empty cell dash and a previous result', () => {
    const { results } = parse(page(1, [cells(1, [50, 'Potassium'], [232, '4.5'], [282, '-'], [330, '4.2'], [400, 'mmol/L'])]));
    expect(results.map((r) => [r.test_name, r.value])).toEqual([['Potassium', '4.5']]);
  });

  it('reads bracketed bounds "(<5.0)" and "(>1.0)" as ranges', () => {
    const { results } = parse(
      page(1, [cells(1, [50, 'Cholesterol'], [232, '3.9'], [282, 'mmol/L'], [372, '(<5.0)']), cells(2, [50, 'HDL Cholesterol'], [232, '1.2'], [282, 'mmol/L'], [372, '(>1.0)'])]),
    );
    expect(byName(results, 'Cholesterol')).toMatchObject({ value: '3.9', reference_range_text: '<5.0', max_reference_range: 5, interpretation: 'normal' });
    expect(byName(results, 'HDL Cholesterol')).toMatchObject({ value: '1.2', reference_range_text: '>1.0', min_reference_range: 1, interpretation: 'normal' });
  });

  it('narrative lines: name — value unit in one chunk, a labelled range, a bracketed flag', () => {
    const { results } = parse(
      page(1, [
        cells(1, [74, '• Sodium — 140 mmol/L'], [190, 'normal range 135-145']),
        cells(2, [74, '• Potassium — 5.2 mmol/L'], [200, 'normal range 3.5-5.0'], [301, '[High]']),
        cells(3, [74, '• HDL cholesterol — 36 mg/dL'], [216, 'normal range >40'], [303, '[Low]']),
        cells(4, [74, '• Calcium — 8.5 mg/dL']),
        cells(5, [74, 'Glucose, fasting .................. 81 mg/dL'], [356, 'Ref: 70-99']),
        'Triglycerides — 174 mg/dL — reference range: <150 (H)',
      ]),
    );
    const row = (r: ParsedResult) => [r.test_name, r.value, r.units, r.reference_range_text, r.flag, r.interpretation];
    expect(results.map(row)).toEqual([
      ['Sodium', '140', 'mmol/L', '135-145', undefined, 'normal'],
      ['Potassium', '5.2', 'mmol/L', '3.5-5.0', 'High', 'abnormal'],
      ['HDL cholesterol', '36', 'mg/dL', '>40', 'Low', 'abnormal'],
      ['Calcium', '8.5', 'mg/dL', undefined, undefined, undefined],
      ['Glucose, fasting', '81', 'mg/dL', '70-99', undefined, 'normal'],
      ['Triglycerides', '174', 'mg/dL', '<150', 'H', 'abnormal'],
    ]);
  });

  it('a labelled range printed between the name and the value; a comma closing the name', () => {
    const { results } = parse(page(1, ['Sodium (normal 135-145): 140 mmol/L', 'Glucose (Ref: 70-99) 105 mg/dL H', 'Potassium, 4.1 mmol/L, reference range 3.5 to 5.1']));
    expect(results.map((r) => [r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.flag])).toEqual([
      ['Sodium', '140', 'mmol/L', 135, 145, undefined],
      ['Glucose', '105', 'mg/dL', 70, 99, 'H'],
      ['Potassium', '4.1', 'mmol/L', 3.5, 5.1, undefined],
    ]);
  });

  it('German and French inline range labels, inside brackets', () => {
    const de = parse(page(1, ['Blutbild', 'Hämoglobin: 13,5 g/dl (Referenzbereich: 12,0-15,5)', 'Leukozyten: 11,2 /nl (Norm: 4,0-10,0) erhöht']));
    expect(de.results.map((r) => [r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.interpretation])).toEqual([
      ['Hämoglobin', '13.5', 'g/dl', 12, 15.5, 'normal'],
      ['Leukozyten', '11.2', '/nl', 4, 10, 'abnormal'],
    ]);
    const fr = parse(page(1, ['Bilan sanguin', 'Sodium : 140 mmol/L (valeurs normales : 135 à 145)']));
    expect(fr.results.map((r) => [r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range])).toEqual([['Sodium', '140', 'mmol/L', 135, 145]]);
  });

  it('"Not Estab." in the range column: the row is read, its range text kept without bounds', () => {
    const { results } = parse(
      page(1, [
        cells(1, [52, 'Neutrophils'], [240, '59'], [332, '57'], [366, '08/16/2023'], [420, '%'], [490, 'Not Estab.'], [551, '01']),
        cells(2, [52, 'Lymphs'], [240, '29'], [420, '%'], [490, 'Not Estab.'], [551, '01']),
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units, r.reference_range_text, r.min_reference_range, r.max_reference_range])).toEqual([
      ['Neutrophils', '59', '%', 'Not Estab.', undefined, undefined],
      ['Lymphs', '29', '%', 'Not Estab.', undefined, undefined],
    ]);
  });

  it('a risk-category legend is not a result, with or without a column header in force', () => {
    const legend = cells(3, [64, 'Low <1.00'], [104, 'Average 1.00 - 3.00'], [173, 'High >3.00']);
    const withHeader = parse(
      page(1, [
        cells(1, [44, 'TESTS'], [250, 'RESULT'], [302, 'FLAG'], [350, 'UNITS'], [432, 'REFERENCE INTERVAL']),
        cells(2, [52, 'C-Reactive Protein, Cardiac'], [250, '3.13'], [302, 'H'], [350, 'mg/L'], [432, '0.00-3.00']),
        legend,
      ]),
    );
    expect(withHeader.results.map((r) => [r.test_name, r.value])).toEqual([['C-Reactive Protein, Cardiac', '3.13']]);
    const plain = parse(page(1, ['Ferritin   85   ng/mL   30-400', 'Desirable <200   Borderline 200-239   High >=240', legend]));
    expect(plain.results.map((r) => [r.test_name, r.value])).toEqual([['Ferritin', '85']]);
  });

  it('a bound with a one-letter flag is still a row, not a legend', () => {
    const { results } = parse(page(1, ['HDL Cholesterol   >90   H   mg/dL   >39']));
    expect(results.map((r) => [r.test_name, r.value, r.flag, r.min_reference_range])).toEqual([['HDL Cholesterol', '>90', 'H', 39]]);
  });
});

describe('parseLabReport: column cells that hold something else', () => {
  it('a header cell naming one column twice ("Expected / Reference") is the range column', () => {
    const { results } = parse(
      page(1, [
        cells(1, [60, 'Test'], [234, 'Result'], [324, 'Flag'], [364, 'Expected / Reference'], [474, 'Units']),
        cells(2, [60, 'Color'], [234, 'Yellow'], [364, 'Yellow']),
        cells(3, [60, 'pH'], [234, '4.8'], [324, 'L'], [364, '5.0-8.0']),
        cells(4, [60, 'Urobilinogen'], [234, '0.3'], [364, '0.2-1.0'], [474, 'mg/dL']),
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.reference_range_text, r.min_reference_range, r.max_reference_range, r.interpretation])).toEqual([
      ['Color', 'Yellow', 'Yellow', undefined, undefined, 'normal'],
      ['pH', '4.8', '5.0-8.0', 5, 8, 'abnormal'],
      ['Urobilinogen', '0.3', '0.2-1.0', 0.2, 1, 'normal'],
    ]);
  });

  it('a range column with the unit inside: "> OR = 60 mL/min/1.73m2", "(calc)" notes, "% of total Hgb", a unit alone', () => {
    const { results } = parse(
      page(1, [
        cells(1, [40, 'Test Name'], [272, 'In Range'], [340, 'Out Of Range'], [416, 'Reference Range'], [558, 'Lab']),
        cells(2, [50, 'EGFR'], [340, '55 L'], [416, '> OR = 60 mL/min/1.73m2'], [560, 'KD']),
        cells(3, [50, 'GLOBULIN'], [272, '2.7'], [416, '1.9-3.7 g/dL (calc)'], [560, 'KD']),
        cells(4, [50, 'HEMOGLOBIN A1c'], [340, '6.2 H'], [416, '<5.7 % of total Hgb'], [560, 'KD']),
        cells(5, [50, 'WHITE BLOOD CELL COUNT'], [272, '9.1'], [416, '3.8-10.8 Thousand/uL'], [560, 'KD']),
        cells(6, [50, 'NEUTROPHILS'], [272, '63.2'], [416, '%'], [560, 'KD']),
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range, r.reference_range_text])).toEqual([
      ['EGFR', '55', 'mL/min/1.73m2', 60, undefined, '> OR = 60 mL/min/1.73m2'],
      ['GLOBULIN', '2.7', 'g/dL', 1.9, 3.7, '1.9-3.7 g/dL (calc)'],
      ['HEMOGLOBIN A1c', '6.2', '% of total Hgb', undefined, 5.7, '<5.7 % of total Hgb'],
      ['WHITE BLOOD CELL COUNT', '9.1', 'Thousand/uL', 3.8, 10.8, '3.8-10.8 Thousand/uL'],
      ['NEUTROPHILS', '63.2', '%', undefined, undefined, undefined],
    ]);
    expect(byName(results, 'EGFR')).toMatchObject({ interpretation: 'abnormal', is_below_min_range: true });
  });

  it('a German "+"/"-" mark that lands in the unit column is not part of the unit', () => {
    const { results } = parse(
      page(1, [
        cells(1, [50, 'Untersuchung'], [260, 'Ergebnis'], [340, 'Einheit'], [420, 'Referenzbereich']),
        cells(2, [56, 'Leukozyten'], [278, '11,6'], [312, '+'], [340, '/nl'], [420, '3,9 - 10,5']),
        cells(3, [56, 'Hämoglobin'], [278, '12,8'], [312, '-'], [340, 'g/dl'], [420, '13,5 - 17,2']),
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units, r.flag, r.interpretation])).toEqual([
      ['Leukozyten', '11.6', '/nl', '+', 'abnormal'],
      ['Hämoglobin', '12.8', 'g/dl', undefined, 'abnormal'],
    ]);
  });
});

describe('parseLabReport: metadata variants', () => {
  it.each([
    [['Patient: John Doe', 'Date of Birth: 1975-04-23'], 'John', 'Doe', '1975-04-23'],
    [['Name: DOE, JOHN   DOB: 4/23/1975'], 'JOHN', 'DOE', '1975-04-23'],
    [['Patient Name      DOB      Collected', 'Jane Roe      12/31/1990      01/15/2024'], 'Jane', 'Roe', '1990-12-31'],
    [['Patientin: Erika Musterfrau   geb. am 2. März 1970'], 'Erika', 'Musterfrau', ''],
    [['Vorname: Erika   Nachname: Musterfrau   Geburtsdatum: 02.03.1970'], 'Erika', 'Musterfrau', '1970-03-02'],
    [['Nom de naissance : MARTIN   Prénom : Luc   Né le : 5 juin 1958'], 'Luc', 'MARTIN', '1958-06-05'],
  ])('%j', (lines, first, last, dob) => {
    const { metadata } = parse(page(1, [...lines, 'Glucose   95   mg/dL   70-99']));
    expect(metadata).toMatchObject({ patient_first_name: first, patient_last_name: last, dob });
  });

  it('returns empty metadata fields when the report has none', () => {
    const { metadata } = parse(page(1, ['Glucose   95   mg/dL   70-99']));
    expect(metadata).toEqual({ patient_first_name: '', patient_last_name: '', dob: '', lab_name: '' });
  });
});

describe('parseLabReport: layouts beyond the corpus', () => {
  it('cumulative report: a header of collection dates makes the newest date’s column the result', () => {
    const r = parse(
      page(1, [
        cells(10, [36, 'ELECTROLYTES']),
        cells(20, [36, 'Date'], [132, '22/02/23'], [180, '20/09/23'], [228, '06/02/24']),
        cells(30, [36, 'Time'], [132, '08:44'], [180, '07:55'], [228, '08:46']),
        cells(40, [36, 'Sodium'], [146, '139'], [190, '123L'], [242, '140'], [271, 'mmol/L'], [338, '(135-145)']),
        cells(50, [36, 'eGFR'], [151, '61'], [194, '56L'], [242, '55L'], [271, 'mL/min/1.73m2'], [338, '(>59)']),
        cells(60, [36, 'GGT'], [146, '75H'], [242, '67H'], [271, 'U/L'], [338, '(5-50)']),
      ]),
    ).results;
    expect(r.map((x) => x.test_name)).toEqual(['Sodium', 'eGFR', 'GGT']);
    expect(core(byName(r, 'Sodium'))).toEqual({ value: '140', units: 'mmol/L', min: 135, max: 145, flag: undefined, interpretation: 'normal' });
    expect(core(byName(r, 'eGFR'))).toMatchObject({ value: '55', min: 59, flag: 'L', interpretation: 'abnormal' });
    expect(core(byName(r, 'GGT'))).toMatchObject({ value: '67', flag: 'H', interpretation: 'abnormal' });
  });

  it('cumulative report with the newest date on the left reads the left column', () => {
    const r = parse(
      page(1, [
        cells(20, [36, 'Collected'], [132, '2025-03-01'], [180, '2024-11-20'], [228, '2024-06-02'], [300, 'Units']),
        cells(40, [36, 'Potassium'], [140, '4.4'], [190, '5.6'], [240, '4.0'], [300, 'mmol/L']),
      ]),
    ).results;
    expect(core(byName(r, 'Potassium'))).toMatchObject({ value: '4.4', units: 'mmol/L' });
  });

  it('"Bio. Ref. Interval" is the range column; a flag cell between result and unit is the flag', () => {
    const r = parse(
      page(1, [
        cells(10, [44, 'Test Name'], [270, 'Result'], [350, 'Unit'], [435, 'Bio. Ref. Interval']),
        cells(20, [44, 'Haemoglobin (Hb)'], [270, '15.4'], [310, 'H'], [350, 'gm/dL'], [435, '12.0 - 15.0']),
        cells(30, [44, 'Method : Photometric']),
        cells(40, [44, 'Total Cholesterol'], [270, '183'], [350, 'mg/dL'], [435, 'Desirable : < 200']),
      ]),
    ).results;
    expect(r).toHaveLength(2);
    expect(core(byName(r, 'Haemoglobin (Hb)'))).toEqual({ value: '15.4', units: 'gm/dL', min: 12, max: 15, flag: 'H', interpretation: 'abnormal' });
    expect(core(byName(r, 'Total Cholesterol'))).toEqual({ value: '183', units: 'mg/dL', min: undefined, max: 200, flag: undefined, interpretation: 'normal' });
  });

  it('"n.n." and "s. Kommentar" are values; n.n. under an upper limit is normal', () => {
    const r = parse(
      page(1, [
        cells(10, [48, 'Parameter'], [248, 'Ergebnis'], [298, 'Einheit'], [378, 'Referenzbereich'], [507, 'Bewertung']),
        cells(20, [54, 'Troponin T hs'], [262, 'n.n.'], [298, 'ng/l'], [378, 'bis 14']),
        cells(30, [54, 'Lipoprotein (a)'], [230, 's. Kommentar']),
        cells(40, [54, 'Kalium'], [262, '5,6'], [298, 'mmol/l'], [378, '3,5 – 5,1'], [523, '↑']),
      ]),
    ).results;
    expect(core(byName(r, 'Troponin T hs'))).toMatchObject({ value: 'n.n.', max: 14, interpretation: 'normal' });
    expect(byName(r, 'Lipoprotein (a)')).toMatchObject({ value: 's. Kommentar', type: 'comment' });
    expect(byName(r, 'Lipoprotein (a)').interpretation).toBeUndefined();
    expect(core(byName(r, 'Kalium'))).toMatchObject({ value: '5.6', min: 3.5, max: 5.1, flag: '↑', interpretation: 'abnormal' });
  });

  it('a street address with a postcode is not a result', () => {
    const r = parse(page(1, ['60 Waterloo Road, Macquarie Park NSW 2113   ABN 12 345 678 901', 'Sodium   140   mmol/L   (135-145)'])).results;
    expect(r.map((x) => x.test_name)).toEqual(['Sodium']);
  });
});

describe('parseLabReport: OCR of photos and scans of newer layouts', () => {
  it('cumulative header whose dates OCR joined into one cell: split by the cell width, newest column read', () => {
    const dated = (y: number, x: number) => ({ y, text: 'Date 26/03/24 27/09/24 19/12/24', cells: [{ x: 91, text: 'Date', width: 41 }, { x, text: '26/03/24 27/09/24 19/12/24', width: 277 }] });
    const r = parse(
      page(
        1,
        [
          dated(10, 294),
          cells(20, [91, 'Sodium'], [310, '154H'], [412, '156H'], [522, '141 mmol/L'], [723, '(135-145)']),
          cells(30, [92, 'Potassium'], [421, '4.5'], [521, '4.0 mmol/L'], [723, '(3.5-5.2)']),
          // A speck read as "i" between the label and the dates does not hide the header.
          { y: 40, text: 'Date i 26/03/24 27/09/24 19/12/24', cells: [{ x: 85, text: 'Date', width: 39 }, { x: 226, text: 'i', width: 1 }, { x: 286, text: '26/03/24 27/09/24 19/12/24', width: 278 }] },
          cells(50, [83, 'Bilirubin'], [324, '15'], [424, '14'], [524, '13'], [573, 'umol/L'], [716, '(2-20)']),
        ],
        'ocr',
      ),
    ).results;
    expect(r.map((x) => [x.test_name, x.value, x.units, x.reference_range_text])).toEqual([
      ['Sodium', '141', 'mmol/L', '135-145'],
      ['Potassium', '4.0', 'mmol/L', '3.5-5.2'],
      ['Bilirubin', '13', 'umol/L', '2-20'],
    ]);
  });

  it('cumulative header naming unit and reference columns after its dates', () => {
    const r = parse(
      page(1, [
        cells(10, [36, 'Collected'], [132, '2025-03-01'], [180, '2024-11-20'], [228, '2024-06-02'], [300, 'Units'], [360, 'Reference']),
        cells(20, [36, 'Potassium'], [140, '4.4'], [190, '5.6'], [240, '4.0'], [300, 'mmol/L'], [360, '3.5-5.1']),
      ]),
    ).results;
    expect(core(byName(r, 'Potassium'))).toMatchObject({ value: '4.4', units: 'mmol/L', min: 3.5, max: 5.1 });
  });

  it('several bare numbers before the unit with no header to say which is current: the row is not read', () => {
    const r = parse(
      page(
        1,
        [
          cells(10, [91, 'Sodium'], [310, '154H'], [412, '156H'], [522, '141 mmol/L'], [723, '(135-145)']),
          'Chloride   104   111H   103   mmol/L   (95-110)',
          // Specks read as "NE" and "7" in front of the value, a column header in force.
          cells(20, [34, 'Test Name'], [260, 'Result'], [339, 'Unit'], [425, 'Bio. Ref. Interval']),
          cells(30, [56, 'SGOT / AST'], [157, 'NE'], [240, '7'], [281, '24'], [361, 'U/L'], [446, '< 35']),
          cells(40, [39, 'Total Protein'], [132, '3'], [202, 'x'], [280, '7.5'], [359, 'g/dL'], [444, '6.6 - 8.3']),
          cells(50, [57, 'SGPT / ALT'], [282, '33'], [362, 'U/L'], [446, '<45']),
        ],
        'ocr',
      ),
    ).results;
    expect(r.map((x) => [x.test_name, x.value])).toEqual([['SGPT / ALT', '33']]);
  });

  it('a lone digit after a value printed with decimals is a speck or a misread unit, not a second value', () => {
    const r = parse(
      page(
        1,
        [
          cells(10, [65, 'Test Name'], [549, 'In Range'], [691, 'Out Of Range'], [849, 'Reference Range'], [1144, 'Lab']),
          cells(20, [100, 'PROTEIN, TOTAL'], [561, '7.1'], [655, '1'], [861, '6.1-8.1 g/dL'], [1162, 'KD']),
          cells(30, [113, 'MCH'], [575, '29.3'], [680, '9%'], [875, '27.0-33.0 pg'], [1175, 'KD']),
          // Whole numbers side by side stay in doubt.
          cells(40, [113, 'GLUCOSE'], [575, '95'], [680, '1'], [875, '65-99 mg/dL'], [1175, 'KD']),
        ],
        'ocr',
      ),
    ).results;
    expect(r.map((x) => [x.test_name, x.value])).toEqual([
      ['PROTEIN, TOTAL', '7.1'],
      ['MCH', '29.3'],
    ]);
  });

  it('a flag right after a previous result belongs to it, not to the current value', () => {
    const r = parse(page(1, [cells(10, [157, 'Sodium'], [524, '139'], [720, 'mmol/L'], [862, '134-144'], [1043, '158 High'], [1150, '11/29/2024'], [1328, '02'])], 'ocr')).results;
    expect(core(byName(r, 'Sodium'))).toEqual({ value: '139', units: 'mmol/L', min: 134, max: 144, flag: undefined, interpretation: 'normal' });
  });

  it('a whole-number range holding ten times a decimal value lost its separators: from OCR it is read a tenth as large', () => {
    const r = parse(
      page(
        1,
        [
          cells(10, [166, 'Hemoglobin A1c'], [531, '5.5'], [730, '%'], [869, '48-56']),
          cells(20, [55, 'Bilirubin - Total'], [280, '0.90'], [360, 'mg/dL'], [445, '03-12']),
          // Flagged low by the lab: the value really is that far below, the range stands.
          cells(30, [55, 'Ferritin'], [280, '3.2'], [320, 'L'], [360, 'ng/mL'], [445, '30-400']),
          cells(40, [55, 'Potassium'], [280, '4.7'], [360, 'mmol/L'], [445, '3.5-5.1']),
        ],
        'ocr',
      ),
    ).results;
    expect(r.map((x) => [x.test_name, x.value, x.reference_range_text, x.interpretation])).toEqual([
      ['Hemoglobin A1c', '5.5', '4.8-5.6', 'normal'],
      ['Bilirubin - Total', '0.90', '0.3-1.2', 'normal'],
      ['Ferritin', '3.2', '30-400', 'abnormal'],
      ['Potassium', '4.7', '3.5-5.1', 'normal'],
    ]);
  });

  it('EHR list lines: a unit closing with a full stop, a qualitative range in brackets', () => {
    const r = parse(
      page(1, ['Glucose: 89 mg/dL. (ref 70-99)', 'HIV-1/2 Ag/Ab Screen: Nonreactive (ref Nonreactive)', 'Hepatitis C Antibody: Nonreactive (ref Nonreactive)'], 'ocr'),
    ).results;
    expect(r.map((x) => [x.test_name, x.value, x.units, x.reference_range_text, x.interpretation])).toEqual([
      ['Glucose', '89', 'mg/dL', '70-99', 'normal'],
      ['HIV-1/2 Ag/Ab Screen', 'Nonreactive', undefined, 'Nonreactive', 'normal'],
      ['Hepatitis C Antibody', 'Nonreactive', undefined, 'Nonreactive', 'normal'],
    ]);
  });
});

describe('parseLabReport: one block per exam (laudo)', () => {
  const laudo = page(1, [
    'Paciente: JOÃO SOUZA        Data de Nascimento: 20/11/1968',
    'HEMOGRAMA COMPLETO',
    'Hemoglobina........:   14,2 g/dL        13,5 a 17,5 g/dL',
    'Hematócrito........:   43,1 %           41,0 a 53,0 %',
    'Leucócitos.........:   7.910 /mm³       4.000 a 11.000 /mm³',
    'GLICOSE',
    'Material: Soro    Método: Enzimático (hexoquinase)',
    'Resultado:    84 mg/dL',
    'Valores de referência:',
    '70 a 99 mg/dL',
    'COLESTEROL TOTAL',
    'Material: Soro    Método: Colorimétrico enzimático',
    'Resultado:    152 mg/dL',
    'Desejável: inferior a 190 mg/dL',
  ]);

  it('names a "Resultado" row by the exam heading above it, and reads no reference line as a test', () => {
    const { results } = parse(laudo);
    expect(results.map((r) => r.test_name)).toEqual(['Hemoglobina', 'Hematócrito', 'Leucócitos', 'GLICOSE', 'COLESTEROL TOTAL']);
    expect(byName(results, 'GLICOSE').value).toBe('84');
    expect(byName(results, 'COLESTEROL TOTAL')).toMatchObject({ value: '152', units: 'mg/dL' });
    expect(byName(results, 'GLICOSE').source_panel_name).toBeUndefined();
  });

  it('reads a point before three digits as a thousands separator where commas are decimal', () => {
    expect(byName(parse(laudo).results, 'Leucócitos')).toMatchObject({ value: '7910', min_reference_range: 4000, max_reference_range: 11000 });
  });

  it('reads no "Result" row when no heading stands above it', () => {
    expect(parse(page(1, ['Patient: Jane Doe', 'Result:    84 mg/dL'])).results).toEqual([]);
  });
});

describe('parseLabReport: transposed tables (tests as columns, dates as rows)', () => {
  const xs = [30, 100, 160, 220];
  const row = (y: number, ...texts: string[]) => cells(y, ...texts.map((t, i) => [xs[i]!, t] as [number, string]).filter(([, t]) => t !== ''));

  it('reads each column as a test whose result is its value on the newest date row, unit and range from the rows under the header', () => {
    const { results } = parse(
      page(1, [
        text('CHEMISTRY', 10),
        row(24, 'Date', 'Na', 'K', 'Creat'),
        row(32, 'Units', 'mmol/L', 'mmol/L', 'umol/L'),
        row(40, 'Range', '135-145', '3.5-5.2', '45-90'),
        row(54, '23/04/2024', '133L', '4.0', '67'),
        row(65, '07/09/2024', '125L', '', '76'),
        row(76, '09/11/2024', '142', '5.6H', '72'),
        text('H = above, L = below the reference range.', 96),
      ]),
    );
    expect(results.map((r) => r.test_name)).toEqual(['Na', 'K', 'Creat']);
    expect(core(byName(results, 'Na'))).toEqual({ value: '142', units: 'mmol/L', min: 135, max: 145, flag: undefined, interpretation: 'normal' });
    expect(core(byName(results, 'K'))).toEqual({ value: '5.6', units: 'mmol/L', min: 3.5, max: 5.2, flag: 'H', interpretation: 'abnormal' });
    expect(byName(results, 'K').loinc_matches?.[0]?.loinc_name).toMatch(/^Potassium/);
  });

  it('takes the newest date wherever its row is, and a column empty on that row gives no result (never an older value)', () => {
    const { results } = parse(
      page(1, [
        row(24, 'Collected', 'Glucose (mmol/L)', 'Albumin (g/L)'),
        row(40, '09/11/2024', '5.1', ''),
        row(51, '07/09/2024', '5.9', '41'),
        row(62, '23/04/2024', '6.2', '44'),
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units])).toEqual([['Glucose', '5.1', 'mmol/L']]);
  });

  it('a date row without a cell in the columns does not end the table', () => {
    const { results } = parse(page(1, [row(24, 'Date', 'Lymph'), row(32, 'Units', 'x10^9/L'), row(46, '21/05/2024', '3.5'), row(57, '09/12/2024'), row(68, '12/04/2025', '3.4')]));
    expect(results.map((r) => [r.test_name, r.value])).toEqual([['Lymph', '3.4']]);
  });

  it('two cells in one column on a date row make that cell unknown: the column gives nothing rather than an older value', () => {
    const { results } = parse(
      page(1, [row(24, 'Date', 'Chol', 'Trig'), row(32, 'Units', 'mmol/L', 'mmol/L'), row(46, '14/04/2024', '4.0', '0.9'), cells(57, [30, '20/12/2024'], [100, '4.1'], [120, 'to.'], [160, '0.8'])]),
    );
    expect(results.map((r) => [r.test_name, r.value])).toEqual([['Trig', '0.8']]);
  });

  it('from OCR, a column whose heading the LOINC table does not know is not read', () => {
    const { results } = parse(page(1, [row(24, 'Date', 'Na', 'our', 'ALT'), row(32, 'Units', 'mmol/L', 'U/L', 'U/L'), row(46, '20/12/2024', '139', '25', '15')], 'ocr'));
    expect(results.map((r) => [r.test_name, r.value])).toEqual([
      ['Na', '139'],
      ['ALT', '15'],
    ]);
  });

  it('a line of test names with no date row under it is read as any other line', () => {
    const { results } = parse(page(1, [row(10, 'Test', 'Result', 'Units'), row(24, 'Sodium', '140', 'mmol/L'), row(38, 'Potassium', '4.1', 'mmol/L')]));
    expect(results.map((r) => [r.test_name, r.value])).toEqual([
      ['Sodium', '140'],
      ['Potassium', '4.1'],
    ]);
    const words = parse(page(1, [row(10, 'Glucose', 'Albumin', 'Sodium'), row(24, 'Sodium', '140', 'mmol/L')]));
    expect(words.results.map((r) => [r.test_name, r.value])).toEqual([['Sodium', '140']]);
  });
});

describe('parseLabReport: results written in sentences', () => {
  it('reads "<name> was <value> <unit> (<range words>)" across wrapped lines, the name the first test the LOINC table knows', () => {
    const { results } = parse(
      page(1, [
        'Dear Mrs Example,',
        'Thank you for having your blood tests done. I have looked at the results and set them out below.',
        'Your total cholesterol was 4.6 mmol/L (ideal below 5.0). Your HDL cholesterol, the "good" cholesterol, was',
        '1.3 mmol/L (ideal above 1.0). Your HbA1c, which shows your average blood sugar over the last three',
        'months, was 37 mmol/mol (normal is below 42). Your kidney tests were checked: creatinine',
        'was 94 umol/L (normal range 60 to 110). Your liver test, ALT, was 50 U/L (normal',
        'below 41). Please book a routine appointment so that we can talk about them.',
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.units, r.min_reference_range, r.max_reference_range])).toEqual([
      ['total cholesterol', '4.6', 'mmol/L', undefined, 5],
      ['HDL cholesterol', '1.3', 'mmol/L', 1, undefined],
      ['HbA1c', '37', 'mmol/mol', undefined, 42],
      ['creatinine', '94', 'umol/L', 60, 110],
      ['ALT', '50', 'U/L', undefined, 41],
    ]);
    expect(byName(results, 'ALT').interpretation).toBe('abnormal');
  });

  it('reads nothing from a letter without results: dates, phone numbers, doses and durations have no unit, and no test name is known', () => {
    const { results } = parse(
      page(1, [
        'Harbourside Surgery, 12 Station Road, Bramford IP8 4AB. Tel: 01473 104332',
        '7 September 2024',
        'Dear Mr Example, thank you for coming to see me on 5 September 2024 about your knee. As we discussed, please take',
        '2 tablets of paracetamol 500 mg up to 4 times a day for 3 weeks, and book a review in 6 to 8 weeks at the',
        'surgery. Your next appointment is at 10:30 on 14 October 2024 in room 3. Please call 01473 104332 if the',
        'pain lasts longer than 2 weeks, or go to the nearest emergency department if it becomes severe.',
        'Yours sincerely, Dr Tom Example',
      ]),
    );
    expect(results).toEqual([]);
  });

  it('does not read a table with notes under its rows as prose', () => {
    const { results } = parse(
      page(1, [
        'Test          Result     Units      Reference Range',
        'Glucose       102        mg/dL      70-99',
        '   Fasting glucose of 100-125 mg/dL is consistent with prediabetes; 126 mg/dL or higher on two occasions',
        '   suggests diabetes and should be confirmed by a repeat test on another day.',
        'Sodium        142        mmol/L     135-146',
      ]),
    );
    expect(results.map((r) => [r.test_name, r.value, r.min_reference_range])).toEqual([
      ['Glucose', '102', 70],
      ['Sodium', '142', 135],
    ]);
  });
});

describe('parseLabReport: ranges named by phase on several lines', () => {
  const header = cells(10, [40, 'Test'], [200, 'Result'], [260, 'Units'], [330, 'Reference Interval']);
  it('a line that is only a named range under a result with a named range continues its range: one result, no bounds', () => {
    const { results } = parse(
      page(1, [
        header,
        cells(24, [40, 'Progesterone'], [200, '5.53'], [260, 'ng/mL'], [330, 'Follicular phase'], [420, '0.06 - 0.89']),
        cells(34, [330, 'Luteal phase'], [420, '1.83 - 23.9']),
        cells(44, [330, 'Postmenopause'], [420, '<0.05 - 0.13']),
        cells(58, [40, 'Prolactin'], [200, '18.3'], [260, 'ng/mL'], [330, '4.8 - 23.3']),
      ]),
    );
    expect(results.map((r) => r.test_name)).toEqual(['Progesterone', 'Prolactin']);
    const p = byName(results, 'Progesterone');
    expect(p.reference_range_text).toBe('Follicular phase 0.06 - 0.89; Luteal phase 1.83 - 23.9; Postmenopause <0.05 - 0.13');
    expect([p.min_reference_range, p.max_reference_range, p.interpretation]).toEqual([undefined, undefined, undefined]);
    expect(core(byName(results, 'Prolactin'))).toMatchObject({ min: 4.8, max: 23.3, interpretation: 'normal' });
  });

  it('ranges by sex on the next line are not joined, and a test under a result stays a result', () => {
    const { results } = parse(
      page(1, [
        header,
        cells(24, [40, 'Creatinine'], [200, '1.19'], [260, 'mg/dL'], [330, 'Male: 0.74 - 1.35']),
        cells(34, [330, 'Female: 0.59 - 1.04']),
        cells(48, [40, 'Ferritin'], [200, '140'], [260, 'ng/mL'], [330, 'Adult 30 - 400']),
        cells(58, [40, 'Iron'], [200, '80'], [260, 'ug/dL'], [330, '60 - 170']),
      ]),
    );
    expect(results.map((r) => r.test_name)).toEqual(['Creatinine', 'Ferritin', 'Iron']);
    expect(core(byName(results, 'Creatinine'))).toMatchObject({ min: 0.74, max: 1.35 });
  });
});
