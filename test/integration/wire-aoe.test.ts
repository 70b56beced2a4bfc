import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFacingLab, clientFacingLabTest, clientFacingMarkerComplete } from '../../api/routes/lab-tests/responses.js';
import { ORDER_MISSING, THIS_ORDER_MISSING, getOrdersResponse, postOrderResponse } from '../../api/routes/orders/responses.js';
import { errorBody, validationErrorBody } from '../../api/routes/responses.js';
import { AOE_QUESTIONS } from '../../db/seed/aoe-questions.js';
import { catalogLabTestId } from '../../db/seed/catalog-data.js';
import { labs, orders } from '../../db/schema/index.js';
import { eventually, http, newTeam, sdkFor, startTestStack, type TestStack } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const STRESS_KIT = catalogLabTestId('northstar-stress-kit');
const Q = AOE_QUESTIONS;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ SERVICE_PHYSICIAN_FIRST_NAME: 'Rowan', SERVICE_PHYSICIAN_LAST_NAME: 'Achterberg', SERVICE_PHYSICIAN_NPI: '1234567893' });
});
afterAll(async () => {
  await stack?.close();
});

const patient = {
  patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
  patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
};

async function setup() {
  const team = await newTeam(stack);
  const client = sdkFor(stack, team.apiKey);
  const { userId } = await client.user.create({ clientUserId: `patient-${Date.now()}-${Math.random()}` });
  const kit = clientFacingLabTest.parse((await http(stack, 'GET', `/v3/lab_tests/${STRESS_KIT}`, { apiKey: team.apiKey })).json);
  const cortisolId = kit.markers[0]!.id;
  return { ...team, client, userId, kit, cortisolId };
}

const orderBody = (s: { userId: string }, extra: Record<string, unknown> = {}) => ({ user_id: s.userId, order_set: { lab_test_ids: [STRESS_KIT] }, ...patient, ...extra });

describe('AOE questions in the catalogue', () => {
  it('are on the markers of lab tests, marker lists and single markers; labs carry logo_url', async () => {
    const s = await setup();
    expect(s.kit.markers[0]!.aoe?.questions.map((q) => [q.id, q.code, q.type, q.required, q.sequence])).toEqual([
      [Q.collectionTime.id, 'COLLTIME', 'text', true, 1],
      [Q.cortisolTiming.id, 'CORTTIME', 'choice', true, 2],
    ]);
    expect(s.kit.markers[0]!.aoe?.questions[1]!.answers.map((a) => a.code)).toEqual(['WAKE', 'AM', 'PM', 'NIGHT']);
    expect(s.kit.lab?.logo_url).toBeNull();

    const [northstar] = await stack.db.db.select().from(labs).where(eq(labs.slug, 'northstar'));
    const one = clientFacingMarkerComplete.parse((await http(stack, 'GET', `/v3/lab_tests/${northstar!.id}/markers/NS-110`, { apiKey: s.apiKey })).json);
    expect(one.aoe?.questions.map((q) => q.code)).toEqual(['FASTHRS']);
    const a1c = clientFacingMarkerComplete.parse((await http(stack, 'GET', `/v3/lab_tests/${northstar!.id}/markers/NS-101`, { apiKey: s.apiKey })).json);
    expect(a1c.aoe).toBeNull();

    const kidney = await s.client.labTests.getById(catalogLabTestId('meridian-kidney-24h-urine'));
    expect(kidney.markers?.find((m) => m.providerId === '701070')?.aoe?.questions.map((q) => q.code)).toEqual(['HEIGHT', 'WEIGHT', 'URVOL']);
    expect(clientFacingLab.array().parse((await http(stack, 'GET', '/v3/lab_tests/labs', { apiKey: s.apiKey })).json).every((l) => l.logo_url === null)).toBe(true);
  });
});

describe('AOE answers on order creation', () => {
  it('refuses missing, unknown and ill-fitting answers with 422 naming each, and creates nothing', async () => {
    const s = await setup();
    const cases: [unknown, string[]][] = [
      [undefined, [`requires an answer to question ${Q.collectionTime.id}`, `requires an answer to question ${Q.cortisolTiming.id}`]],
      [[{ marker_id: s.cortisolId, question_id: Q.collectionTime.id, answer: '07:10' }], [`requires an answer to question ${Q.cortisolTiming.id}`]],
      [
        [
          { marker_id: s.cortisolId, question_id: Q.collectionTime.id, answer: '7 in the morning' },
          { marker_id: s.cortisolId, question_id: Q.cortisolTiming.id, answer: 'Morning' },
          { marker_id: s.cortisolId, question_id: Q.fastingHours.id, answer: '8' },
          { marker_id: 999999, question_id: Q.collectionTime.id, answer: '07:10' },
        ],
        ['HH:MM', 'one of WAKE, AM, PM, NIGHT', `asks no question ${Q.fastingHours.id}`, "marker 999999 is not one of the order's markers"],
      ],
      [[{ marker_id: s.cortisolId, question_id: Q.collectionTime.id }], ['answer']],
      [[{ marker_id: 'x', question_id: Q.collectionTime.id, answer: '07:10' }], ['marker_id']],
      ['07:10', ['aoe_answers']],
    ];
    for (const [answers, expected] of cases) {
      const res = await http(stack, 'POST', '/v3/order', { apiKey: s.apiKey, body: orderBody(s, answers === undefined ? {} : { aoe_answers: answers }) });
      expect(res.status, JSON.stringify(answers)).toBe(422);
      const text = JSON.stringify(validationErrorBody.parse(res.json).detail);
      for (const e of expected) expect(text, JSON.stringify(answers)).toContain(e);
    }
    expect(getOrdersResponse.parse((await http(stack, 'GET', '/v3/orders', { apiKey: s.apiKey })).json).total).toBe(0);
    expect(await stack.db.db.select({ id: orders.id }).from(orders).where(eq(orders.teamId, s.teamId))).toEqual([]);
  });

  it("accepts answers (also through the SDK), keeps them, prints them and the service's physician on the requisition", async () => {
    const s = await setup();
    const res = await http(stack, 'POST', '/v3/order', {
      apiKey: s.apiKey,
      body: orderBody(s, {
        aoe_answers: [
          { marker_id: s.cortisolId, question_id: Q.cortisolTiming.id, answer: 'WAKE' },
          { marker_id: s.cortisolId, question_id: Q.collectionTime.id, answer: ' 06:50 ' },
        ],
      }),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const { order } = postOrderResponse.parse(res.json);
    expect(order.physician).toEqual({ first_name: 'Rowan', last_name: 'Achterberg', npi: '1234567893' });
    const [row] = await stack.db.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.aoeAnswers).toEqual([
      { marker_id: s.cortisolId, question_id: Q.collectionTime.id, answer: '06:50' },
      { marker_id: s.cortisolId, question_id: Q.cortisolTiming.id, answer: 'WAKE' },
    ]);

    await eventually(async () => (await s.client.labTests.getOrder(order.id)).events.some((e) => e.status.endsWith('.requisition_created')));
    const pdf = await http(stack, 'GET', `/v3/order/${order.id}/requisition/pdf`, { apiKey: s.apiKey });
    expect(pdf.status).toBe(200);
    const bytes = await (await fetch(`${stack.url}/v3/order/${order.id}/requisition/pdf`, { headers: { 'x-service-api-key': s.apiKey } })).arrayBuffer();
    const { lines } = await pdfText(new Uint8Array(bytes));
    // A long label wraps over several text runs (also after a hyphen); joined, it reads as printed.
    const printed = lines.join(' ').replace(/- /g, '-');
    expect(lines).toContain('Order entry questions');
    expect(printed).toContain('Cortisol, Saliva: Collection time (24-hour clock, HH:MM) 06:50');
    expect(printed).toContain('Cortisol, Saliva: Collection timing Within 30 minutes of waking');
    expect(lines).toContain('Rowan Achterberg');
    expect(lines).toContain('1234567893');

    const viaSdk = await s.client.labTests.createOrder({
      userId: s.userId,
      orderSet: { labTestIds: [STRESS_KIT] },
      aoeAnswers: [
        { markerId: s.cortisolId, questionId: Q.collectionTime.id, answer: '21:30' },
        { markerId: s.cortisolId, questionId: Q.cortisolTiming.id, answer: 'NIGHT' },
      ],
      physician: { firstName: 'Gregory', lastName: 'House', npi: '1234567893' },
      patientDetails: { firstName: 'Jane', lastName: 'Doe', dob: '1990-05-17', gender: 'female', phoneNumber: '+14155552671', email: 'jane@example.com' },
      patientAddress: { firstLine: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
    });
    expect(viaSdk.order.physician).toEqual({ firstName: 'Gregory', lastName: 'House', npi: '1234567893' });
  });

  it("gives a testkit order shipped unregistered the service's physician", async () => {
    const s = await setup();
    const res = await http(stack, 'POST', '/v3/order/testkit', {
      apiKey: s.apiKey,
      body: {
        user_id: s.userId,
        lab_test_id: catalogLabTestId('northstar-hba1c-kit'),
        shipping_details: { receiver_name: 'Jane Doe', first_line: '1 A St', city: 'Austin', state: 'TX', zip: '78701', country: 'US', phone_number: '+14155552671' },
      },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const { order } = postOrderResponse.parse(res.json);
    expect(order.physician).toEqual({ first_name: 'Rowan', last_name: 'Achterberg', npi: '1234567893' });
    expect(order.shipping_details?.second_line).toBeNull();
  });
});

describe('keys sent as null and the 404 texts', () => {
  it('sends the optional patient keys as null, and given values as given', async () => {
    const s = await setup();
    const answers = [
      { marker_id: s.cortisolId, question_id: Q.collectionTime.id, answer: '07:00' },
      { marker_id: s.cortisolId, question_id: Q.cortisolTiming.id, answer: 'AM' },
    ];
    const plain = postOrderResponse.parse((await http(stack, 'POST', '/v3/order', { apiKey: s.apiKey, body: orderBody(s, { aoe_answers: answers }) })).json).order;
    expect(plain.patient_details).toMatchObject({ medical_proxy: null, race: null, ethnicity: null, sexual_orientation: null, gender_identity: null });
    expect(plain.patient_address).toMatchObject({ second_line: null, access_notes: null, receiver_name: null, phone_number: null });
    const full = postOrderResponse.parse(
      (
        await http(stack, 'POST', '/v3/order', {
          apiKey: s.apiKey,
          body: orderBody(s, {
            aoe_answers: answers,
            patient_details: { ...patient.patient_details, race: 'asian', gender_identity: 'female' },
            patient_address: { ...patient.patient_address, second_line: 'Apt 4', access_notes: 'Gate code 1234' },
          }),
        })
      ).json,
    ).order;
    expect(full.patient_details).toMatchObject({ race: 'asian', gender_identity: 'female', ethnicity: null });
    expect(full.patient_address).toMatchObject({ second_line: 'Apt 4', access_notes: 'Gate code 1234' });
  });

  it("answers 404 as the hosted service words it", async () => {
    const s = await setup();
    const cases = [
      ['GET', `/v3/order/${MISSING}`, THIS_ORDER_MISSING],
      ['GET', `/v3/order/${MISSING}/requisition/pdf`, THIS_ORDER_MISSING],
      ['POST', `/v3/order/${MISSING}/cancel`, ORDER_MISSING],
      ['POST', `/v3/order/${MISSING}/test`, ORDER_MISSING],
    ] as const;
    for (const [method, path, detail] of cases) {
      const res = await http(stack, method, path, { apiKey: s.apiKey });
      expect(res.status, path).toBe(404);
      expect(errorBody.parse(res.json), path).toEqual({ detail });
    }
    expect(THIS_ORDER_MISSING).toBe("This order doesn't exist");
    expect(ORDER_MISSING).toBe("Order doesn't exist");
  });
});
