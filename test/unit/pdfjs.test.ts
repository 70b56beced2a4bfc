import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'labflow-pdfjs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `body` in a fresh Node process (its own globals), after taking the natives; prints what changed. */
function inFreshProcess(name: string, body: string): { push: boolean; parse: boolean; toString: boolean; pages?: number } {
  const file = join(dir, `${name}.mts`);
  writeFileSync(
    file,
    `const push = Array.prototype.push, parse = JSON.parse, toString = Function.prototype.toString;
     ${body}
     console.log(JSON.stringify({ push: Array.prototype.push !== push, parse: JSON.parse !== parse, toString: Function.prototype.toString !== toString, pages }));`,
  );
  const out = execFileSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ReturnType<typeof inFreshProcess>;
}

const onePagePdf = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
trailer << /Root 1 0 R >>
%%EOF`;

describe('pdfjs loader (lib/pdfjs.ts)', () => {
  it("pdfjs's legacy build, imported directly, replaces Array.prototype.push and JSON.parse for the whole process", () => {
    const changed = inFreshProcess(
      'direct',
      `const { getDocument } = await import(${JSON.stringify(join(root, 'node_modules/pdfjs-dist/legacy/build/pdf.mjs'))});
       const pages = (await getDocument({ data: new TextEncoder().encode(${JSON.stringify(onePagePdf)}), verbosity: 0 }).promise).numPages;`,
    );
    expect(changed).toMatchObject({ push: true, parse: true, pages: 1 });
  }, 60_000);

  it('loadPdfjs gives a working pdfjs and leaves the natives as they were', () => {
    const changed = inFreshProcess(
      'loader',
      `const { loadPdfjs } = await import(${JSON.stringify(join(root, 'lib/pdfjs.ts'))});
       const { getDocument } = await loadPdfjs();
       const pages = (await getDocument({ data: new TextEncoder().encode(${JSON.stringify(onePagePdf)}), verbosity: 0 }).promise).numPages;`,
    );
    expect(changed).toEqual({ push: false, parse: false, toString: false, pages: 1 });
  }, 60_000);
});
