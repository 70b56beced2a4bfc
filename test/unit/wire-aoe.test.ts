import { describe, expect, it } from 'vitest';
import { aoe as aoeSchema } from '../../api/routes/lab-tests/responses.js';
import { AOE, AOE_QUESTIONS } from '../../db/seed/aoe-questions.js';
import { CATALOG_LAB_TESTS, CATALOG_MARKERS } from '../../db/seed/catalog-data.js';
import {
  aoeAnswersInput,
  aoeRequisitionLines,
  aoeToWire,
  answerProblem,
  checkAoeAnswers,
  type AoeMarker,
} from '../../domain/orders/aoe.js';
import { buildRequisition } from '../../domain/orders/requisition.js';

const cortisol: AoeMarker = { id: 11, name: 'Cortisol, Saliva', aoe: AOE.salivaCortisol };
const lipids: AoeMarker = { id: 12, name: 'Lipid Panel', aoe: AOE.fasting };
const sti: AoeMarker = { id: 13, name: 'Chlamydia', aoe: AOE.sti };
const a1c: AoeMarker = { id: 14, name: 'Hemoglobin A1c', aoe: null };
const markers = [cortisol, lipids, sti, a1c];
const Q = AOE_QUESTIONS;

const complete = [
  { marker_id: 11, question_id: Q.collectionTime.id, answer: '07:15' },
  { marker_id: 11, question_id: Q.cortisolTiming.id, answer: 'WAKE' },
  { marker_id: 12, question_id: Q.fastingHours.id, answer: '12' },
];

describe('AOE answers on order creation', () => {
  it('accepts answers to every required question, in marker and question order, trimmed', () => {
    const shuffled = [{ ...complete[2]!, answer: ' 12 ' }, complete[1]!, complete[0]!, { marker_id: 13, question_id: Q.symptoms.id, answer: 'DISCHARGE, DYSURIA' }];
    const { issues, answers } = checkAoeAnswers(markers, shuffled);
    expect(issues).toEqual([]);
    expect(answers).toEqual([...complete, { marker_id: 13, question_id: Q.symptoms.id, answer: 'DISCHARGE, DYSURIA' }]);
  });

  it('names each required question left out', () => {
    const { issues } = checkAoeAnswers(markers, [complete[0]!]);
    expect(issues.map((i) => i.msg)).toEqual([
      `marker 11 (Cortisol, Saliva) requires an answer to question ${Q.cortisolTiming.id} (Collection timing)`,
      `marker 12 (Lipid Panel) requires an answer to question ${Q.fastingHours.id} (${Q.fastingHours.value})`,
    ]);
    expect(issues.every((i) => i.type === 'missing' && i.loc.join('.') === 'body.aoe_answers')).toBe(true);
  });

  it("refuses a marker outside the order, a question the marker does not ask, and a question answered twice", () => {
    const { issues } = checkAoeAnswers(markers, [
      ...complete,
      { marker_id: 999, question_id: Q.fastingHours.id, answer: '8' },
      { marker_id: 14, question_id: Q.fastingHours.id, answer: '8' },
      { marker_id: 12, question_id: Q.fastingHours.id, answer: '9' },
    ]);
    expect(issues).toEqual([
      { loc: ['body', 'aoe_answers', 3, 'marker_id'], msg: "marker 999 is not one of the order's markers", type: 'value_error' },
      { loc: ['body', 'aoe_answers', 4, 'question_id'], msg: `marker 14 (Hemoglobin A1c) asks no question ${Q.fastingHours.id}`, type: 'value_error' },
      { loc: ['body', 'aoe_answers', 5], msg: `question ${Q.fastingHours.id} of marker 12 is answered twice`, type: 'value_error' },
    ]);
  });

  it('checks each answer against its question type and constraint', () => {
    expect(answerProblem(Q.fastingHours, '8.5')).toBeNull();
    expect(answerProblem(Q.fastingHours, 'twelve')).toBe('the answer must be a number');
    expect(answerProblem(Q.fastingHours, '73')).toBe('the answer must be between 0 and 72');
    expect(answerProblem(Q.fastingHours, '-1')).toBe('the answer must be between 0 and 72');
    expect(answerProblem(Q.fastingHours, '1e3')).toBe('the answer must be a number');
    expect(answerProblem(Q.collectionTime, '23:59')).toBeNull();
    expect(answerProblem(Q.collectionTime, '24:00')).toBe('the answer must be a time of day written HH:MM, e.g. 07:45');
    expect(answerProblem(Q.cortisolTiming, 'AM')).toBeNull();
    expect(answerProblem(Q.cortisolTiming, 'Morning')).toBe('the answer must be one of WAKE, AM, PM, NIGHT');
    expect(answerProblem(Q.symptoms, 'NONE,PELVIC')).toBeNull();
    expect(answerProblem(Q.symptoms, 'NONE,NONE')).toBe('the answer names a choice twice');
    expect(answerProblem(Q.symptoms, 'NONE,FEVER')).toMatch(/comma-separated list/);
    expect(answerProblem(Q.lastMenstrualPeriod, '2026-11-02')).toBeNull();
    expect(answerProblem(Q.lastMenstrualPeriod, '11/02/2026')).toBe('the answer must be a date written YYYY-MM-DD');
    expect(answerProblem(Q.heightInches, '   ')).toBe('the answer is empty');
    expect(answerProblem(Q.lastMenstrualPeriod, 'x'.repeat(501))).toBe('the answer is longer than 500 characters');
    const { issues } = checkAoeAnswers([lipids], [{ marker_id: 12, question_id: Q.fastingHours.id, answer: 'lots' }]);
    expect(issues).toEqual([{ loc: ['body', 'aoe_answers', 0, 'answer'], msg: `${Q.fastingHours.value}: the answer must be a number`, type: 'value_error' }]);
  });

  it('parses the wire input: numbers as text, ids positive integers, at most 100 answers', () => {
    expect(aoeAnswersInput.parse([{ marker_id: 1, question_id: 2, answer: 12 }])).toEqual([{ marker_id: 1, question_id: 2, answer: '12' }]);
    for (const bad of [
      [{ marker_id: '1', question_id: 2, answer: 'x' }],
      [{ marker_id: 1.5, question_id: 2, answer: 'x' }],
      [{ marker_id: 1, question_id: 0, answer: 'x' }],
      [{ marker_id: 1, question_id: 2 }],
      [{ marker_id: 1, question_id: 2, answer: null }],
      [{ marker_id: 1, question_id: 2, answer: { text: 'x' } }],
      { marker_id: 1, question_id: 2, answer: 'x' },
      Array.from({ length: 101 }, (_, i) => ({ marker_id: 1, question_id: i + 1, answer: 'x' })),
    ]) {
      expect(aoeAnswersInput.safeParse(bad).success, JSON.stringify(bad).slice(0, 80)).toBe(false);
    }
  });
});

describe('AOE on the wire and on the requisition', () => {
  it('sends every Question key, in sequence order, without our validation hints; null when none', () => {
    const wire = aoeToWire(AOE.creatinineClearance)!;
    expect(aoeSchema.parse(wire)).toEqual(wire);
    expect(wire.questions.map((q) => q.code)).toEqual(['HEIGHT', 'WEIGHT', 'URVOL']);
    expect(Object.keys(wire.questions[0]!).sort()).toEqual(['answers', 'code', 'constraint', 'default', 'id', 'required', 'sequence', 'type', 'value']);
    expect(aoeToWire(null)).toBeNull();
    expect(aoeToWire({ questions: [] })).toBeNull();
  });

  it('prints each answer under its marker and question, choices by their label', () => {
    const lines = aoeRequisitionLines(markers, [...complete, { marker_id: 13, question_id: Q.symptoms.id, answer: 'DISCHARGE,DYSURIA' }]);
    expect(lines).toEqual([
      { label: 'Cortisol, Saliva: Collection time (24-hour clock, HH:MM)', value: '07:15' },
      { label: 'Cortisol, Saliva: Collection timing', value: 'Within 30 minutes of waking' },
      { label: `Lipid Panel: ${Q.fastingHours.value}`, value: '12' },
      { label: 'Chlamydia: Symptoms present', value: 'Discharge, Pain or burning when urinating' },
    ]);
    const content = buildRequisition({
      orderId: 'o', sampleId: null, createdAt: new Date('2026-11-20T00:00:00Z'), method: 'testkit', priority: false, billingType: 'client_bill',
      icdCodes: null, activateBy: null, clinicalNotes: null, patient: null, patientAddress: null, physician: null,
      labTest: { name: 'Kit', labName: null, markers: [] }, labAccount: null, aoeAnswers: lines,
    });
    expect(content.sections.find((s) => s.heading === 'Order entry questions')?.lines).toEqual(lines);
    const without = buildRequisition({ ...{ orderId: 'o', sampleId: null, createdAt: new Date(), method: 'testkit', priority: false, billingType: 'client_bill', icdCodes: null, activateBy: null, clinicalNotes: null, patient: null, patientAddress: null, physician: null, labTest: { name: 'Kit', labName: null, markers: [] }, labAccount: null } });
    expect(without.sections.map((s) => s.heading)).not.toContain('Order entry questions');
  });
});

describe('AOE in the seeded catalogue', () => {
  it('asks the realistic questions: fasting for lipids and glucose, collection time for cortisol, height, weight and volume for 24-hour urine', () => {
    const codesOf = (lab: string, providerId: string) =>
      CATALOG_MARKERS.find((m) => m.labSlug === lab && m.providerId === providerId)!.aoe?.questions.map((q) => q.code) ?? [];
    expect(codesOf('meridian', '701020')).toEqual(['FASTHRS']);
    expect(codesOf('cascade', '8201')).toEqual(['FASTHRS']);
    expect(codesOf('meridian', '702016')).toEqual(['COLLTIME']);
    expect(codesOf('northstar', 'NS-111')).toEqual(['COLLTIME', 'CORTTIME']);
    expect(codesOf('meridian', '701070')).toEqual(['HEIGHT', 'WEIGHT', 'URVOL']);
    expect(codesOf('northstar', 'NS-101')).toEqual([]);
    expect(CATALOG_LAB_TESTS.find((t) => t.slug === 'meridian-kidney-24h-urine')?.markers).toEqual(['701070', '701080']);
  });

  it('gives one question one id wherever it is asked, and answer ids unique', () => {
    const byId = new Map<number, string>();
    const answerIds = new Set<number>();
    for (const m of CATALOG_MARKERS) {
      const seqs = (m.aoe?.questions ?? []).map((q) => q.sequence);
      expect(new Set(seqs).size, m.name).toBe(seqs.length);
      for (const q of m.aoe?.questions ?? []) {
        expect(byId.get(q.id) ?? q.code, `question ${q.id}`).toBe(q.code);
        byId.set(q.id, q.code);
        if (q.type === 'choice' || q.type === 'multi_choice') expect(q.answers.length, q.code).toBeGreaterThan(1);
        if (q.type === 'numeric') expect(q.min !== undefined && q.max !== undefined && q.constraint, q.code).toBeTruthy();
      }
    }
    for (const q of Object.values(AOE_QUESTIONS)) for (const a of q.answers) {
      expect(answerIds.has(a.id), `answer ${a.id}`).toBe(false);
      answerIds.add(a.id);
    }
    expect(byId.size).toBeGreaterThanOrEqual(7);
  });
});
