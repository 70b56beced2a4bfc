import { loadPdfjs } from '../../../lib/pdfjs.js';
import { MAX_PDF_PAGES, checkImage } from '../../../lib/report-files.js';
import type { ParsingJobMime } from '../../../workflows/lab-report/definitions.js';
import { HttpError, ValidationError, badRequest } from '../../errors.js';
import { MAX_NAME, clipInput, hasControlChars } from '../../validation.js';
import { MAX_IMAGE_FILES, MAX_UPLOAD_BYTES, sniffMime } from './schemas.js';

export interface CheckedFile {
  file: File;
  bytes: Uint8Array;
  mime: ParsingJobMime;
}

export const tooLarge = () => new HttpError(413, `The upload is larger than ${MAX_UPLOAD_BYTES} bytes (30 MiB in total).`);

const SUPPORTED = 'upload a PDF, JPEG or PNG file, or up to 8 JPEG/PNG images of one report';

const KIND: Record<ParsingJobMime, string> = { 'application/pdf': 'a PDF', 'image/jpeg': 'a JPEG image', 'image/png': 'a PNG image' };

/**
 * The content type a part declares, when it names one of the accepted types (BEHAVIOUR §9: a mismatch
 * with the bytes is refused). No type, or a generic one (application/octet-stream), says nothing: the
 * bytes decide. The file name is never used.
 */
function declaredType(type: string): ParsingJobMime | undefined {
  const t = type.split(';')[0]!.trim().toLowerCase();
  if (t === 'application/pdf' || t === 'image/png' || t === 'image/jpeg') return t;
  if (t === 'image/jpg' || t === 'image/pjpeg') return 'image/jpeg';
  return undefined;
}

/** Which file, in messages: "The file" for one, "File 2 (name)" among several. */
const label = (k: number, count: number, file: File) => (count === 1 ? 'The file' : `File ${k + 1}${file.name ? ` (${file.name})` : ''}`);

/**
 * The cheap checks of an upload (BEHAVIOUR §9), before anything is stored: how many files, their total
 * size, each one's type by its bytes, no PDF among several files. Throws the 400/413 to answer.
 */
export async function checkFiles(files: File[]): Promise<CheckedFile[]> {
  if (files.length > MAX_IMAGE_FILES) {
    throw badRequest(`Too many files (${files.length}): a report can be uploaded as at most ${MAX_IMAGE_FILES} images.`);
  }
  for (const [k, file] of files.entries()) {
    // The name is kept with the job: one line of at most 255 characters, like any name.
    if (file.name.length > MAX_NAME || hasControlChars(file.name)) {
      const msg = file.name.length > MAX_NAME ? `file names must be at most ${MAX_NAME} characters` : 'file names must not contain control characters';
      throw new ValidationError([{ loc: ['body', 'file', k], msg, type: 'value_error', input: clipInput(file.name) }]);
    }
  }
  const total = files.reduce((s, f) => s + f.size, 0);
  if (total > MAX_UPLOAD_BYTES) throw tooLarge();
  const checked: CheckedFile[] = [];
  for (const [k, file] of files.entries()) {
    if (file.size === 0) throw badRequest(`${label(k, files.length, file)} is empty.`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const mime = sniffMime(bytes);
    if (!mime) throw badRequest(`Unsupported file type: ${SUPPORTED}.${files.length > 1 ? ` (${label(k, files.length, file)} is neither.)` : ''}`);
    const declared = declaredType(file.type);
    if (declared && declared !== mime) {
      throw badRequest(`${label(k, files.length, file)} is sent as ${declared} but its contents are ${KIND[mime]}.`);
    }
    checked.push({ file, bytes, mime });
  }
  if (checked.length > 1 && checked.some((c) => c.mime === 'application/pdf')) {
    throw badRequest('A PDF must be uploaded on its own: only JPEG and PNG images can be combined into one report.');
  }
  return checked;
}

/**
 * The content checks: each image's headers can be read (a damaged image would otherwise crash its
 * decoder, lib/report-files.ts), a PDF opens and has 1–30 pages. An encrypted PDF is accepted here:
 * its job fails `invalid_input`, saying why.
 */
export async function checkContents(files: CheckedFile[]): Promise<void> {
  for (const [k, { file, bytes, mime }] of files.entries()) {
    if (mime === 'application/pdf') {
      const problem = await pdfProblem(bytes);
      if (problem) throw badRequest(problem);
    } else {
      const check = checkImage(bytes, mime);
      if (!check.ok) {
        const kind = mime === 'image/png' ? 'PNG' : 'JPEG';
        throw badRequest(`${label(k, files.length, file)} is not a readable ${kind} image: ${check.detail}.`);
      }
    }
  }
}

/** Why the PDF cannot be accepted, or null. pdfjs reads the cross-reference table and catalogue only. */
async function pdfProblem(bytes: Uint8Array): Promise<string | null> {
  // loaded on the first PDF upload only
  const { getDocument } = await loadPdfjs();
  let doc;
  try {
    // pdfjs takes ownership of the buffer it is given: hand it a copy.
    doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  } catch (err) {
    if ((err as { name?: string }).name === 'PasswordException') return null;
    return 'The file is not a readable PDF (damaged or truncated).';
  }
  try {
    if (doc.numPages === 0) return 'The PDF has no pages.';
    if (doc.numPages > MAX_PDF_PAGES) return `The PDF has ${doc.numPages} pages; at most ${MAX_PDF_PAGES} are accepted.`;
    return null;
  } finally {
    await doc.destroy();
  }
}
