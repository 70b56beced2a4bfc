import { FONT, FONT_BOLD, contentWidth, heading, labelled, renderPdf, type Pdf } from './document.js';

/** What the results report prints: the stored results of an order, as GET /v3/order/{id}/result answers them. */
export interface ResultsReport {
  orderId: string;
  status: 'partial' | 'final';
  interpretation: string;
  metadata: Record<string, unknown>;
  results: unknown[];
  missingResults: unknown[];
}

interface Row {
  name: string;
  result: string;
  unit: string;
  range: string;
  flag: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

function rowOf(item: unknown): Row {
  const r = obj(item);
  const flag = r.is_above_max_range === true ? 'H' : r.is_below_min_range === true ? 'L' : '';
  const interpretation = str(r.interpretation);
  return {
    name: str(r.name),
    result: str(r.result),
    unit: str(r.unit),
    range: str(r.reference_range),
    flag: [flag, interpretation && interpretation !== 'normal' ? interpretation : ''].filter(Boolean).join(' '),
  };
}

const COLUMNS: { key: keyof Row; title: string; share: number }[] = [
  { key: 'name', title: 'Test', share: 0.34 },
  { key: 'result', title: 'Result', share: 0.2 },
  { key: 'unit', title: 'Unit', share: 0.14 },
  { key: 'range', title: 'Reference range', share: 0.18 },
  { key: 'flag', title: 'Flag', share: 0.14 },
];

function tableRow(doc: Pdf, cells: Row, bold: boolean): void {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  doc.font(bold ? FONT_BOLD : FONT).fontSize(9);
  const widths = COLUMNS.map((c) => c.share * width - 6);
  const height = Math.max(...COLUMNS.map((c, i) => doc.heightOfString(cells[c.key] || ' ', { width: widths[i]! })));
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const y = doc.y;
  let x = left;
  COLUMNS.forEach((c, i) => {
    doc.text(cells[c.key], x, y, { width: widths[i]! });
    x += c.share * width;
  });
  doc.x = left;
  doc.y = y + height + 4;
}

/** Renders an order's results (metadata, one row per biomarker, missing results) as a PDF. */
export function renderResultsPdf(report: ResultsReport): Promise<Buffer> {
  const m = report.metadata;
  return renderPdf({ title: `Results ${report.orderId}`, subject: 'Laboratory results' }, (doc) => {
    doc.font(FONT_BOLD).fontSize(18).text('Laboratory results');
    doc
      .font(FONT)
      .fontSize(10)
      .text(`${report.status === 'final' ? 'Final' : 'Partial'} report · interpretation: ${report.interpretation}`);

    heading(doc, 'Patient');
    labelled(doc, 'Name', str(m.patient) || '—');
    labelled(doc, 'Date of birth', str(m.dob) || '—');
    labelled(doc, 'Age', str(m.age) || '—');

    heading(doc, 'Specimen');
    labelled(doc, 'Order ID', report.orderId);
    labelled(doc, 'Sample ID', str(m.specimen_number) || '—');
    labelled(doc, 'Laboratory', str(m.laboratory) || '—');
    labelled(doc, 'Collected', str(m.date_collected) || '—');
    labelled(doc, 'Reported', str(m.date_reported) || '—');

    heading(doc, 'Results');
    tableRow(doc, { name: 'Test', result: 'Result', unit: 'Unit', range: 'Reference range', flag: 'Flag' }, true);
    for (const item of report.results) tableRow(doc, rowOf(item), false);

    if (report.missingResults.length) {
      heading(doc, 'Missing results');
      for (const item of report.missingResults) {
        const r = obj(item);
        labelled(doc, str(r.name), [str(r.inferred_failure_type), str(r.note)].filter(Boolean).join(': ') || 'not reported');
      }
    }
  });
}
