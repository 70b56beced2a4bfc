/**
 * npm run corpus:lab-reports — writes the lab report evaluation corpus into
 * test/fixtures/lab-report-corpus/reports/: text PDFs, phone photos and scans of reports in several
 * real-world lab layouts, each with its ground truth (<id>.json) beside it, and manifest.json.
 * Everything is drawn from one seed, so a run gives the same files (given the same fonts and libraries).
 * Layouts live in test/fixtures/lab-report-corpus/generator/layouts/.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { LAYOUTS } from '../test/fixtures/lab-report-corpus/generator/layouts/index.js';
import { photograph, rasterise, scan } from '../test/fixtures/lab-report-corpus/generator/photo.js';
import { Rng } from '../test/fixtures/lab-report-corpus/generator/rng.js';
import type { CorpusKind, CorpusManifest, ReportTruth } from '../test/fixtures/lab-report-corpus/generator/truth.js';

const SEED = 20251001;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'lab-report-corpus');
const out = join(root, 'reports');

/** How many of each: [layout, text PDFs, photos, scans]. A scan is a PNG, or a PDF of scanned pages when marked 'pdf'. */
const PLAN: [string, number, number, ('png' | 'pdf')[]][] = [
  ['us-commercial', 3, 1, []],
  ['us-inrange', 2, 1, ['png']],
  ['hospital', 3, 0, ['pdf']],
  ['german', 3, 1, ['pdf']],
  ['french', 3, 1, []],
  ['uk', 2, 1, ['png']],
  ['narrative', 2, 1, []],
  ['urinalysis', 2, 1, []],
  // Layouts written after the parser's rules, to test how they generalise. Each report's randomness is
  // forked from the seed by its id, so adding these (or their images) leaves the reports above unchanged.
  // One image each: photos of a US table, a German Befund and an EHR list; fax-like PNG scans of a
  // cumulative table and a French leader-dotted report; a scanned PDF of an Indian report.
  ['us-labcorp', 2, 1, []],
  ['indian', 2, 0, ['pdf']],
  ['cumulative', 2, 0, ['png']],
  ['ehr-list', 2, 1, []],
  ['german-befund', 2, 1, []],
  ['french-leaders', 2, 0, ['png']],
  // Issue 14: twelve families from conventions the parser had not seen (consumer cards, grids, two-column
  // panels, monospaced LIS, trend tables, sex-dependent ranges, Spanish, Italian, comments between rows,
  // long reports with and without repeated headers, portal printouts); each as text PDFs and one image.
  ['cards', 2, 1, []],
  ['card-grid', 2, 0, ['png']],
  ['two-column', 2, 1, []],
  ['lis-mono', 2, 0, ['png']],
  ['trend', 2, 1, []],
  ['sex-ranges', 2, 0, ['png']],
  ['spanish', 2, 1, []],
  ['italian', 2, 0, ['png']],
  ['footnotes', 2, 1, []],
  ['multipage-repeated', 2, 0, ['pdf']],
  ['multipage-headless', 2, 1, []],
  ['mychart', 2, 0, ['png']],
  // Issue 14, fourth pass: nine more families from conventions none of the above has (Dutch and Brazilian
  // letters, In Range / Out Of Range columns, phase-dependent ranges, the range in the first column,
  // scientific notation and thousand separators, a transposed cumulative table, a letter in prose, flags
  // before the value), each as text PDFs and one image, measured before the parser saw them.
  ['dutch', 2, 1, []],
  ['portuguese', 2, 0, ['png']],
  ['quest', 2, 1, []],
  ['hormone', 2, 0, ['png']],
  ['range-left', 2, 1, []],
  ['sci-units', 2, 0, ['png']],
  ['transposed', 2, 0, ['png']],
  ['prose-letter', 2, 1, []],
  ['flags-before', 2, 0, ['pdf']],
  // Issue 14, fifth pass: eight more (Swedish and Polish reports, a Canadian bilingual report with two-line
  // column headers, a cardiovascular panel with risk categories, paediatric age bands, "value (range) flag"
  // in one cell, the unit column before the value, a point-of-care analyser ticket), each measured by the
  // parser as it was when they were committed, before any rule was written for them.
  ['swedish', 2, 1, []],
  ['polish', 2, 0, ['png']],
  ['canadian', 2, 1, []],
  ['lipid-risk', 2, 0, ['png']],
  ['pediatric', 2, 1, []],
  ['inline-cell', 2, 0, ['png']],
  ['units-first', 2, 0, ['png']],
  ['poc-device', 2, 1, []],
  // Issue 14, sixth pass: eight more (allergen-specific IgE with a class column, a blood gas analyser's
  // printout, a coagulation screen with a control column, Czech and Turkish hospital reports, a discharge
  // summary's bloods between prose sections, an HL7 message printed from an interface viewer, a
  // micronutrient panel with Deficient / Insufficient / Optimal columns), measured the same way.
  ['allergy-ige', 2, 1, []],
  ['blood-gas', 2, 0, ['png']],
  ['coag', 2, 1, []],
  ['czech', 2, 0, ['png']],
  ['turkish', 2, 1, []],
  ['discharge', 2, 1, []],
  ['hl7', 2, 0, ['png']],
  ['micronutrient', 2, 0, ['png']],
  // Issue 14, seventh pass: six more (a Mexican private lab with the interval on a line under each result,
  // a Japanese health check sheet with this year's and last year's values and judgement letters A-D, tumour
  // markers with a method line under every row, a direct-to-consumer wellness report with "optimal range"
  // bars, a Romanian bulletin with bracketed intervals and decimal commas, urine microscopy with binned
  // counts per /HPF), measured the same way.
  ['mexican', 2, 1, []],
  ['kenshin', 2, 0, ['png']],
  ['tumour-markers', 2, 1, []],
  ['wellness', 2, 1, []],
  ['romanian', 2, 0, ['png']],
  ['urine-micro', 2, 0, ['png']],
  // Issue 14, eighth pass: eight more (a Danish answer with NPU codes and P-/B- prefixes, a Finnish sheet with
  // test numbers and abbreviations, a Hungarian LELET with yyyy.mm.dd. dates and a +/- column, an Indonesian
  // lab with the interval before the unit and dot thousands, an Australian RCPA report with "142 H" and
  // "( 30-110 )", infectious serology with S/CO index lines, drug levels with therapeutic and toxic columns,
  // a visit note's "Name: value unit (ref ...)" lines), measured the same way.
  ['danish', 2, 1, []],
  ['finnish', 2, 0, ['png']],
  ['hungarian', 2, 0, ['png']],
  ['indonesian', 2, 1, []],
  ['rcpa', 2, 0, ['png']],
  ['serology', 2, 1, []],
  ['tdm', 2, 0, ['png']],
  ['kv-colon', 2, 1, []],
  // Issue 14, ninth pass: eight more (a Philippine / Gulf chemistry with every result in SI and conventional
  // units, a haematology analyser's differential with % and # on one row, a LIS export with separate
  // "Ref. Low" / "Ref. High" columns, a functional-medicine review with standard and optimal ranges, an
  // Indian report whose reference cells are category tiers, a previous result before the current one with a
  // change column, a plain-text pipe/semicolon LIS export in monospace, a Swiss report with trilingual
  // headings), measured the same way.
  ['dual-units', 2, 1, []],
  ['diff-abs', 2, 0, ['png']],
  ['ref-low-high', 2, 0, ['png']],
  ['optimal-standard', 2, 1, []],
  ['tiered-ranges', 2, 0, ['pdf']],
  ['previous-result', 2, 0, ['png']],
  ['pipe-export', 2, 0, ['png']],
  ['swiss', 2, 1, []],
  // Issue 14, tenth pass: eight more (a Russian commercial lab in Cyrillic with decimal commas, a Greek lab in
  // Greek script, a Pakistani report with a method column, a South African practice marking results "5.9*"
  // and "2.6**", a Kenyan report with worded ranges ("Up to 40", "Above 1.00", "M: 13.0-17.0 F: 12.0-15.0"),
  // a Nigerian hospital printing each panel's unit in its heading, a single-test certificate, a US hospital
  // report with critical-call and corrected-result comment lines), measured the same way.
  ['russian', 2, 0, ['png']],
  ['greek', 2, 1, []],
  ['method-column', 2, 0, ['pdf']],
  ['asterisk-flags', 2, 0, ['png']],
  ['worded-ranges', 2, 1, []],
  ['unit-heading', 2, 0, ['png']],
  ['certificate', 2, 1, []],
  ['critical-comments', 2, 0, ['png']],
  // Issue 14, eleventh pass: six more (a Norwegian hospital laboratory with decimal commas, "mIE/L" and "*"
  // after results outside the reference area, a patient app's export stacking each result on three lines
  // with "Normal range: …" under it, a UK trace-element laboratory with an LOQ column and censored results
  // ("<1.0", "Not detected", ">1476"), a men's-health clinic printing one-sided limits as "≥ 8.6" / "≤15.2",
  // a Singapore hospital boxing each panel with its specimen and method in the box header, an Irish
  // results service printing "5.6 mmol/L [3.5–5.3]" in one cell), measured the same way.
  ['norwegian', 2, 1, []],
  ['app-stacked', 2, 0, ['png']],
  ['censored', 2, 0, ['pdf']],
  ['one-sided', 2, 1, []],
  ['boxed-panels', 2, 0, ['png']],
  ['bracket-ranges', 2, 1, []],
  // Issue 14, twelfth pass: six more (a US VA CPRS printout whose every result line starts with its collection
  // date/time and panel code, a US reference lab printing an order code and the LOINC code beside each test, a
  // Thai hospital in English with Buddhist-era dates and a "Normal Value" column, a Gulf hospital with a sample
  // ID heading and a "Verified by" line per panel and "Critical" flags, an Austrian Laborbefund with the previous
  // value in parentheses after the current one and "+" / "-" flags, a patient portal's key-value blocks),
  // measured the same way.
  ['va-cprs', 2, 0, ['png']],
  ['code-column', 2, 1, []],
  ['thai-be', 2, 0, ['pdf']],
  ['gulf-critical', 2, 1, []],
  ['austrian-prev', 2, 0, ['png']],
  ['kv-blocks', 2, 1, []],
  // Issue 14, thirteenth pass (thirteenth-a): three more (a Croatian KBC "Laboratorijski nalaz" with "Prezime i
  // ime: HORVAT IVAN", OIB, decimal commas and ↑ / ↓ in a narrow column, a Vietnamese hospital sheet printed
  // without diacritics with bilingual column headings, the year of birth only and abnormal results in bold
  // without a flag, a US urgent-care EHR printout with the unit in brackets after each test's name and a
  // Normal / Low / High word column), measured the same way.
  ['croatian', 2, 0, ['png']],
  ['vietnamese', 2, 1, []],
  ['unit-in-name', 2, 0, ['pdf']],
  // Issue 14, thirteenth pass (thirteenth-b): three more (a Lithuanian private lab's answer with ISO dates, an
  // asmens kodas, decimal commas and an arrow after the value outside the norm; a US hospital EHR printout on a
  // landscape page with nine columns, collection and result date-times on every row; an Indian diagnostic
  // centre's "TEST NAME | TECHNOLOGY | VALUE | UNITS" table with the reference intervals printed apart from it),
  // measured the same way.
  ['lithuanian', 2, 1, []],
  ['landscape-wide', 2, 0, ['png']],
  ['remote-ranges', 2, 1, []],
];

const log = (m: string) => process.stderr.write(`[corpus] ${m}\n`);

async function scannedPdf(pages: Buffer[], size: [number, number]): Promise<Buffer> {
  const fixed = new Date(Date.UTC(2025, 9, 1));
  const doc = new PDFDocument({ size, margin: 0, autoFirstPage: false, info: { Producer: 'Scan to PDF', CreationDate: fixed, ModDate: fixed } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const jpg of pages) {
    doc.addPage({ size, margin: 0 });
    doc.image(jpg, 0, 0, { width: size[0], height: size[1] });
  }
  doc.end();
  return done;
}

async function main() {
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(out)) rmSync(join(out, f));
  const seed = new Rng(SEED);
  const manifest: CorpusManifest = { seed: SEED, reports: [] };
  for (const [layoutName, pdfs, photos, scans] of PLAN) {
    const layout = LAYOUTS.find((l) => l.name === layoutName);
    if (!layout) throw new Error(`unknown layout ${layoutName}`);
    const jobs: { kind: CorpusKind; n: number; scan?: 'png' | 'pdf' }[] = [
      ...Array.from({ length: pdfs }, (_, i) => ({ kind: 'text_pdf' as const, n: i + 1 })),
      ...Array.from({ length: photos }, (_, i) => ({ kind: 'image' as const, n: i + 1 })),
      ...scans.map((s, i) => ({ kind: s === 'pdf' ? ('scanned_pdf' as const) : ('image' as const), n: i + 1, scan: s })),
    ];
    for (const job of jobs) {
      const id = `${layoutName}-${job.kind === 'text_pdf' ? 'pdf' : job.scan ? 'scan' : 'photo'}-${String(job.n).padStart(2, '0')}`;
      const rng = seed.fork(id);
      const report = await layout.render(rng.fork('report'));
      const truth: ReportTruth = {
        id,
        file: '',
        layout: layoutName,
        kind: job.kind,
        pages: report.pages,
        language: report.language,
        metadata: report.metadata,
        results: report.results,
      };
      let bytes: Buffer;
      const look = rng.fork('degrade');
      if (job.kind === 'text_pdf') {
        bytes = report.pdf;
        truth.file = `${id}.pdf`;
      } else if (job.kind === 'scanned_pdf') {
        const dpi = 150;
        const pages: Buffer[] = [];
        let size: [number, number] = [612, 792];
        for (let n = 1; n <= report.pages; n++) {
          const page = await rasterise(report.pdf, n, dpi);
          size = [(page.width * 72) / dpi, (page.height * 72) / dpi];
          const s = scan(page, look, dpi, 'jpg');
          truth.degradation = s.degradation;
          pages.push(s.bytes);
        }
        bytes = await scannedPdf(pages, size);
        truth.file = `${id}.pdf`;
      } else {
        // A photo or scan shows the first page.
        const dpi = job.scan ? 150 : look.int(150, 170);
        const page = await rasterise(report.pdf, 1, dpi);
        const img = job.scan ? scan(page, look, dpi, 'png') : photograph(page, look, dpi);
        bytes = img.bytes;
        truth.degradation = img.degradation;
        truth.pages = 1;
        truth.results = truth.results.filter((r) => r.page === 1);
        truth.file = `${id}.${img.ext}`;
      }
      writeFileSync(join(out, truth.file), bytes);
      writeFileSync(join(out, `${id}.json`), `${JSON.stringify(truth, null, 2)}\n`);
      manifest.reports.push({ id, file: truth.file, truth: `${id}.json`, layout: layoutName, kind: job.kind, pages: truth.pages });
      log(`${truth.file}: ${truth.results.length} results, ${truth.pages} page(s), ${Math.round(bytes.length / 1024)} KB`);
    }
  }
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`${manifest.reports.length} reports written to ${out}`);
}

await main();
