import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { labOrderWorkflowId } from '../../workflows/lab-order/definitions.js';
import { labReportWorkflowId } from '../../workflows/lab-report/definitions.js';
import { samplePdf } from '../fixtures/lab-reports/report.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';

/**
 * Order and parsing-job workflows set the service's search attributes (team, status, collection method,
 * user), so Temporal's visibility finds them (the dashboard's Workflows view, `temporal workflow list -q`).
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({}, { orderDeadlines: { correctionWindowSeconds: 0 } });
});
afterAll(async () => {
  await stack?.close();
});

const { team: T, status: S, method: M, user: U } = SEARCH_ATTRIBUTES;
const ids = async (query: string) => {
  const found: string[] = [];
  for await (const wf of stack.temporal.workflow.list({ query })) found.push(wf.workflowId);
  return found;
};

describe('search attributes set by the workflows', () => {
  it('an order is found by team, method, user and its current status, and no longer by a status it left', async () => {
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `sa-${randomUUID()}` } });
    const userId = user.json.user_id as string;
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const created = await http(stack, 'POST', '/v3/order', {
      apiKey: team.apiKey,
      body: {
        user_id: userId, order_set: { lab_test_ids: [labTestId] },
        patient_details: { first_name: 'Jane', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
        patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
      },
    });
    expect(created.status, created.text).toBe(200);
    const orderId = (created.json.order as { id: string }).id;
    const wf = labOrderWorkflowId(orderId);
    const byTeam = `${T.name} = '${team.teamId}' AND ${M.name} = 'testkit' AND ${U.name} = '${userId}'`;
    expect(await eventually(async () => ((await ids(`${byTeam} AND ${S.name} = 'requisition_created'`)).includes(wf) ? true : null), 20_000, 250)).toBe(true);

    expect((await http(stack, 'POST', `/v3/order/${orderId}/test`, { apiKey: team.apiKey })).status).toBe(200);
    expect(await eventually(async () => ((await ids(`${byTeam} AND ${S.name} = 'completed'`)).includes(wf) ? true : null), 30_000, 250)).toBe(true);
    expect(await ids(`${byTeam} AND ${S.name} = 'requisition_created'`)).not.toContain(wf);
    // another team's filter does not find it
    expect(await ids(`${T.name} = '${randomUUID()}'`)).toEqual([]);
  });

  it('a parsing job is found by team, user and status', async () => {
    const team = await newTeam(stack);
    const user = await http(stack, 'POST', '/v2/user', { apiKey: team.apiKey, body: { client_user_id: `sa-${randomUUID()}` } });
    const userId = user.json.user_id as string;
    const form = new FormData();
    form.append('file', new Blob([await samplePdf()], { type: 'application/pdf' }), 'report.pdf');
    form.append('user_id', userId);
    const res = await fetch(`${stack.url}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-vital-api-key': team.apiKey }, body: form });
    expect(res.status).toBeLessThan(300);
    const job = (await res.json()) as { id: string };
    const wf = labReportWorkflowId(job.id);
    const query = `${T.name} = '${team.teamId}' AND ${U.name} = '${userId}' AND ${S.name} = 'completed'`;
    expect(await eventually(async () => ((await ids(query)).includes(wf) ? true : null), 120_000, 500)).toBe(true);
  });
});
