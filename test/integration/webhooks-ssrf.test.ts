import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEndpoint } from '../../db/queries/webhooks.js';
import { lazySecretBox } from '../../db/queries/service-secrets.js';
import { webhookAttempts, webhookDeliveries } from '../../db/schema/index.js';
import { newEndpointSecret } from '../../domain/webhooks/signing.js';
import { TEST_SECRET_ENCRYPTION_KEY } from '../support/constants.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { createEndpoint, emitEvents } from '../support/webhooks.js';

// No request here ever leaves 127.0.0.0/8: refused destinations are refused before any connection.
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('webhook endpoints and the SSRF guard', () => {
  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
    'https://172.16.0.1/',
    'https://192.168.1.10/',
    'https://100.64.0.1/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[64:ff9b::a00:1]/',
    'https://0.0.0.0/',
    'https://metadata.google.internal/',
    'https://db/',
  ])('refuses %s at creation and PATCH with 422 {detail}, storing nothing', async (url) => {
    const team = await newTeam(stack);
    const created = await http(stack, 'POST', '/v2/webhooks/endpoints', { apiKey: team.apiKey, body: { url } });
    expect(created.status, created.text).toBe(422);
    expect(created.json.detail).toMatch(/public address/);
    expect((await http(stack, 'GET', '/v2/webhooks/endpoints', { apiKey: team.apiKey })).json.data).toEqual([]);

    const ep = await createEndpoint(stack, team.apiKey, 'http://127.0.0.1:9/hooks'); // sandbox: loopback allowed
    const patched = await http(stack, 'PATCH', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: team.apiKey, body: { url } });
    expect(patched.status).toBe(422);
    expect((await http(stack, 'GET', `/v2/webhooks/endpoints/${ep.id}`, { apiKey: team.apiKey })).json.url).toBe('http://127.0.0.1:9/hooks');
  });

  it('checks again at delivery: an endpoint stored with a private address gets one failed attempt with the reason, no retries', async () => {
    const team = await newTeam(stack);
    // As an endpoint stored before the guard existed (the API would refuse it now).
    const box = await lazySecretBox(stack.db.db, TEST_SECRET_ENCRYPTION_KEY)();
    const endpoint = await insertEndpoint(stack.db.db, {
      id: randomUUID(),
      teamId: team.teamId,
      url: 'https://10.0.0.1/hooks',
      description: '',
      eventTypes: [],
      secretEnc: box.seal(newEndpointSecret()),
    });
    const [eventId] = await emitEvents(stack, team.teamId, 1);
    const delivery = await eventually(async () => {
      const [row] = await stack.db.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId!));
      return row?.status === 'failed' && row;
    });
    expect(delivery).toMatchObject({ endpointId: endpoint.id, attempts: 1 });
    const attempts = await stack.db.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ statusCode: null, error: 'refused: 10.0.0.1 is private' });
  });
});
