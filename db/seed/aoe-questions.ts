/**
 * The ask-on-order-entry questions of the sandbox catalogue's markers, modelled on what US reference
 * labs ask: fasting duration for glucose, insulin and lipids, the collection time of a cortisol, the
 * last menstrual period for cycle-dependent hormones, and height, weight and total volume for a
 * 24-hour urine creatinine clearance. Question and answer ids are fixed (like a lab's own codes), so an
 * order's `aoe_answers` name the same question on every install; a question asked by several markers
 * keeps its id on each.
 */
import type { Aoe, AoeQuestion } from '../../domain/orders/aoe.js';

const yesNo = (questionId: number) => [
  { id: questionId * 10 + 1, code: 'Y', value: 'Yes' },
  { id: questionId * 10 + 2, code: 'N', value: 'No' },
];

const q = (question: Omit<AoeQuestion, 'answers' | 'constraint' | 'default'> & Partial<Pick<AoeQuestion, 'answers' | 'constraint' | 'default'>>): AoeQuestion => ({
  answers: [],
  constraint: null,
  default: null,
  ...question,
});

export const AOE_QUESTIONS = {
  fastingHours: q({
    id: 1001, code: 'FASTHRS', value: 'Fasting duration (hours since last food or drink other than water)', type: 'numeric',
    required: true, sequence: 1, min: 0, max: 72, constraint: 'a number of hours from 0 to 72',
  }),
  collectionTime: q({
    id: 1002, code: 'COLLTIME', value: 'Collection time (24-hour clock, HH:MM)', type: 'text',
    required: true, sequence: 1, pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', constraint: 'a time of day written HH:MM, e.g. 07:45',
  }),
  cortisolTiming: q({
    id: 1003, code: 'CORTTIME', value: 'Collection timing', type: 'choice', required: true, sequence: 2,
    answers: [
      { id: 10031, code: 'WAKE', value: 'Within 30 minutes of waking' },
      { id: 10032, code: 'AM', value: 'Morning (before noon)' },
      { id: 10033, code: 'PM', value: 'Afternoon' },
      { id: 10034, code: 'NIGHT', value: 'Late evening (bedtime)' },
    ],
  }),
  lastMenstrualPeriod: q({
    id: 1004, code: 'LMP', value: 'First day of last menstrual period (YYYY-MM-DD)', type: 'text', required: false, sequence: 1,
    pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', constraint: 'a date written YYYY-MM-DD',
  }),
  heightInches: q({
    id: 1005, code: 'HEIGHT', value: 'Patient height (inches)', type: 'numeric', required: true, sequence: 1, min: 12, max: 108,
    constraint: 'a number of inches from 12 to 108',
  }),
  weightPounds: q({
    id: 1006, code: 'WEIGHT', value: 'Patient weight (pounds)', type: 'numeric', required: true, sequence: 2, min: 2, max: 1000,
    constraint: 'a number of pounds from 2 to 1000',
  }),
  urineVolume: q({
    id: 1007, code: 'URVOL', value: '24-hour urine total volume (mL)', type: 'numeric', required: true, sequence: 3, min: 1, max: 10000,
    constraint: 'a number of millilitres from 1 to 10000',
  }),
  vitaminDSupplements: q({
    id: 1008, code: 'VITDSUP', value: 'Taking vitamin D supplements?', type: 'choice', required: false, sequence: 1, answers: yesNo(1008),
  }),
  symptoms: q({
    id: 1009, code: 'SYMPT', value: 'Symptoms present', type: 'multi_choice', required: false, sequence: 1,
    answers: [
      { id: 10091, code: 'NONE', value: 'None' },
      { id: 10092, code: 'DISCHARGE', value: 'Discharge' },
      { id: 10093, code: 'DYSURIA', value: 'Pain or burning when urinating' },
      { id: 10094, code: 'PELVIC', value: 'Pelvic or testicular pain' },
    ],
  }),
} satisfies Record<string, AoeQuestion>;

const aoe = (...questions: AoeQuestion[]): Aoe => ({ questions });

/** Questions by marker kind; catalog-data.ts attaches them to each lab's markers. */
export const AOE = {
  fasting: aoe(AOE_QUESTIONS.fastingHours),
  cortisol: aoe(AOE_QUESTIONS.collectionTime),
  salivaCortisol: aoe(AOE_QUESTIONS.collectionTime, AOE_QUESTIONS.cortisolTiming),
  cycleHormone: aoe(AOE_QUESTIONS.lastMenstrualPeriod),
  creatinineClearance: aoe(AOE_QUESTIONS.heightInches, AOE_QUESTIONS.weightPounds, AOE_QUESTIONS.urineVolume),
  urineVolume: aoe({ ...AOE_QUESTIONS.urineVolume, sequence: 1 }),
  vitaminD: aoe(AOE_QUESTIONS.vitaminDSupplements),
  sti: aoe(AOE_QUESTIONS.symptoms),
};
