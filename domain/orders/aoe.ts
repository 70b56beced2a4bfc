/**
 * Ask-on-order-entry (AOE) questions: what a lab needs to know about the patient or the collection to
 * run a marker (fasting hours for lipids, collection time for cortisol, height, weight and urine volume
 * for a 24-hour creatinine clearance). Markers carry them (`ClientFacingMarker.aoe`, CONTRACT §3); an
 * order answers them in `aoe_answers` (`{marker_id, question_id, answer}`), and the requisition prints
 * the answers. Pure: no I/O, no clock.
 */
import { z } from 'zod';

export const QUESTION_TYPES = ['choice', 'text', 'numeric', 'multi_choice'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** An allowed answer of a choice question (`Answer`); the order sends its `code`. */
export interface AoeAnswerOption {
  id: number;
  code: string;
  value: string;
}

/** One question (`Question`, CONTRACT §3). `constraint` is the readable rule an answer must meet. */
export interface AoeQuestion {
  id: number;
  required: boolean;
  code: string;
  value: string;
  type: QuestionType;
  sequence: number;
  answers: AoeAnswerOption[];
  constraint: string | null;
  default: string | null;
  /** Numeric questions: the inclusive range accepted (not on the wire; `constraint` says it in words). */
  min?: number;
  max?: number;
  /** Text questions: a pattern the answer must match (not on the wire; `constraint` says it in words). */
  pattern?: string;
}

/** `AoE` as stored on a marker and sent on the wire. */
export interface Aoe {
  questions: AoeQuestion[];
}

/** One answer of an order (`AoEAnswer`, CONTRACT §4). */
export interface AoeAnswer {
  marker_id: number;
  question_id: number;
  answer: string;
}

/** Most answers an order may carry (the catalogue's largest test asks fewer than 20 questions). */
export const MAX_AOE_ANSWERS = 100;

/** `aoe_answers` of CreateOrderRequestCompatible, as sent (their fit to the markers: checkAoeAnswers). */
export const aoeAnswersInput = z
  .array(
    z.object({
      marker_id: z.number().int().positive(),
      question_id: z.number().int().positive(),
      // A number is accepted for a numeric answer (clients send 8 as well as "8"); kept as text.
      answer: z.union([z.string(), z.number().finite()]).transform((v) => String(v)),
    }),
  )
  .max(MAX_AOE_ANSWERS, `at most ${MAX_AOE_ANSWERS} answers`);

/** The wire form of a question: every key CONTRACT lists, without our validation hints. */
export function questionToWire(q: AoeQuestion) {
  return {
    id: q.id,
    required: q.required,
    code: q.code,
    value: q.value,
    type: q.type,
    sequence: q.sequence,
    answers: q.answers.map((a) => ({ id: a.id, code: a.code, value: a.value })),
    constraint: q.constraint,
    default: q.default,
  };
}

export function aoeToWire(aoe: Aoe | null | undefined) {
  return aoe && aoe.questions.length > 0 ? { questions: [...aoe.questions].sort((a, b) => a.sequence - b.sequence).map(questionToWire) } : null;
}

export interface AoeIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The markers of an order, with their questions (null when a marker asks none). */
export interface AoeMarker {
  id: number;
  name: string;
  aoe: Aoe | null;
}

const MAX_ANSWER = 500;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Why `answer` does not fit `q`, or null when it does. */
export function answerProblem(q: AoeQuestion, answer: string): string | null {
  const a = answer.trim();
  if (a === '') return 'the answer is empty';
  if (a.length > MAX_ANSWER) return `the answer is longer than ${MAX_ANSWER} characters`;
  const codes = q.answers.map((o) => o.code);
  switch (q.type) {
    case 'numeric': {
      if (!NUMBER.test(a)) return 'the answer must be a number';
      const n = Number(a);
      if ((q.min !== undefined && n < q.min) || (q.max !== undefined && n > q.max)) return `the answer must be between ${q.min ?? '-∞'} and ${q.max ?? '∞'}`;
      return null;
    }
    case 'choice':
      return codes.includes(a) ? null : `the answer must be one of ${codes.join(', ')}`;
    case 'multi_choice': {
      const picked = a.split(',').map((p) => p.trim());
      const bad = picked.filter((p) => !codes.includes(p));
      if (bad.length > 0) return `the answer must be a comma-separated list of ${codes.join(', ')}`;
      return new Set(picked).size === picked.length ? null : 'the answer names a choice twice';
    }
    case 'text':
      return q.pattern && !new RegExp(q.pattern).test(a) ? `the answer must be ${q.constraint ?? `like ${q.pattern}`}` : null;
  }
}

/**
 * Checks an order's `aoe_answers` against its markers' questions: each answer names one of the order's
 * markers and a question that marker asks, at most once, and fits the question; every required
 * question is answered. Returns the FastAPI-style issues (empty when the answers are acceptable) and
 * the answers trimmed, in the markers' and questions' order.
 */
export function checkAoeAnswers(markers: AoeMarker[], answers: AoeAnswer[]): { issues: AoeIssue[]; answers: AoeAnswer[] } {
  const issues: AoeIssue[] = [];
  const byMarker = new Map(markers.map((m) => [m.id, m]));
  const given = new Map<string, string>();
  answers.forEach((ans, i) => {
    const loc = ['body', 'aoe_answers', i];
    const marker = byMarker.get(ans.marker_id);
    if (!marker) {
      issues.push({ loc: [...loc, 'marker_id'], msg: `marker ${ans.marker_id} is not one of the order's markers`, type: 'value_error' });
      return;
    }
    const q = marker.aoe?.questions.find((x) => x.id === ans.question_id);
    if (!q) {
      issues.push({ loc: [...loc, 'question_id'], msg: `marker ${marker.id} (${marker.name}) asks no question ${ans.question_id}`, type: 'value_error' });
      return;
    }
    const key = `${marker.id}|${q.id}`;
    if (given.has(key)) {
      issues.push({ loc, msg: `question ${q.id} of marker ${marker.id} is answered twice`, type: 'value_error' });
      return;
    }
    const problem = answerProblem(q, ans.answer);
    if (problem) issues.push({ loc: [...loc, 'answer'], msg: `${q.value}: ${problem}`, type: 'value_error' });
    given.set(key, ans.answer.trim());
  });
  const ordered: AoeAnswer[] = [];
  for (const m of markers) {
    for (const q of [...(m.aoe?.questions ?? [])].sort((a, b) => a.sequence - b.sequence)) {
      const answer = given.get(`${m.id}|${q.id}`);
      if (answer !== undefined) ordered.push({ marker_id: m.id, question_id: q.id, answer });
      else if (q.required) {
        issues.push({
          loc: ['body', 'aoe_answers'],
          msg: `marker ${m.id} (${m.name}) requires an answer to question ${q.id} (${q.value})`,
          type: 'missing',
        });
      }
    }
  }
  return { issues, answers: ordered };
}

/** What the requisition needs of a marker's questions (the stored or the wire form). */
export interface AoeLabelSource {
  id: number;
  name: string;
  aoe: { questions: Pick<AoeQuestion, 'id' | 'value' | 'type' | 'answers'>[] } | null;
}

/** Requisition lines for the answers: `<marker>: <question>` → the answer as the lab reads it. */
export function aoeRequisitionLines(markers: AoeLabelSource[], answers: AoeAnswer[] | null | undefined): { label: string; value: string }[] {
  const lines: { label: string; value: string }[] = [];
  for (const ans of answers ?? []) {
    const m = markers.find((x) => x.id === ans.marker_id);
    const q = m?.aoe?.questions.find((x) => x.id === ans.question_id);
    if (!m || !q) continue;
    const value =
      q.type === 'choice' || q.type === 'multi_choice'
        ? ans.answer
            .split(',')
            .map((code) => q.answers.find((o) => o.code === code.trim())?.value ?? code.trim())
            .join(', ')
        : ans.answer;
    lines.push({ label: `${m.name}: ${q.value}`, value });
  }
  return lines;
}
