/**
 * The lab report parser's internal contract. Extraction (PDF text layer or OCR) produces pages of
 * positioned text lines; the parser turns them into a ParsedReport; LOINC matching ranks candidate
 * codes for each result. Shapes map 1:1 onto CONTRACT §7 (ParsedLabReportData, LabReportResult,
 * LoincMatch) when serialised by the API.
 */

/** One line of text as read from a page, left to right, with where it sits (page units, origin top-left). */
export interface TextLine {
  text: string;
  /** Vertical position of the line's baseline/top; lines of one page are in reading order (top to bottom). */
  y: number;
  /** Optional words/cells with their left x, when the extractor knows them (PDF text items, OCR words). */
  cells?: { text: string; x: number; width?: number }[];
}

/**
 * Prefixed by the extractor to a word it read differently each time it looked (OCR): its text is not
 * known. The parser never takes it for a value: a row whose value it may be is not read (a wrong value
 * is worse than a missing one); see readAroundUnreadable in parse.ts.
 */
export const UNREADABLE = '\u2047';

export interface ExtractedPage {
  /** 1-based page number. */
  page: number;
  lines: TextLine[];
  /** How the text was obtained; OCR confidence is 0–100 when known. */
  source: 'text_layer' | 'ocr';
  ocrConfidence?: number;
}

/** How surely a phrase names a test, 0–1 (the LOINC matcher's confidence: loinc-match.ts). */
export type NameConfidence = (name: string) => number;
/** From this confidence a phrase is taken for a test's name where nothing else (a unit, a range, a column) says so. */
export const LIKELY_TEST_NAME = 0.75;

export type ResultType = 'numeric' | 'range' | 'comment' | 'boolean' | 'duration' | 'percentage' | 'ratio';
export type Interpretation = 'normal' | 'abnormal' | 'critical' | 'unknown';

export interface LoincMatch {
  loinc_code: string;
  loinc_name: string;
  display_name?: string;
  aliases?: string[];
  /** 0–1, higher is surer. */
  confidence_score: number;
}

export interface ParsedResult {
  test_name: string;
  /** The value exactly as reported (decimal commas normalised to points for numeric values). */
  value: string;
  type: ResultType;
  units?: string;
  min_reference_range?: number;
  max_reference_range?: number;
  /** The reference range text as printed (e.g. "70-99", "<200", "Negative"). */
  reference_range_text?: string;
  source_panel_name?: string;
  /** Flag as printed (H, L, HH, LL, A, High, Low, critical, *). */
  flag?: string;
  interpretation?: Interpretation;
  is_above_max_range?: boolean;
  is_below_min_range?: boolean;
  loinc_matches?: LoincMatch[];
  /** Page the result was read from (1-based). */
  page?: number;
}

export interface ReportMetadata {
  patient_first_name: string;
  patient_last_name: string;
  /** YYYY-mm-dd when it could be read, else "". */
  dob: string;
  lab_name: string;
  date_reported?: string;
  date_collected?: string;
  specimen_number?: string;
}

export interface ParsedReport {
  metadata: ReportMetadata;
  results: ParsedResult[];
}

/** Why a job failed (BEHAVIOUR §9 failure reasons; the service adds finer detail in `failure_detail`). */
export type FailureReason = 'invalid_input' | 'not_english' | 'processing_error';
