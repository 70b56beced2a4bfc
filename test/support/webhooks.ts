import { randomUUID } from 'node:crypto';
import { recordTeamEvent } from '../../db/queries/events.js';
import { wakeEndpoints } from '../../lib/webhook-wake.js';
import { http, type TestStack } from './harness.js';
import { TestReceiver, type Behaviour } from './receiver.js';

export interface EndpointJson {
  id: string;
  secret: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  description: string;
}

/** Registers a webhook endpoint through the API (fails the test unless it answers 201). */
export async function createEndpoint(stack: TestStack, apiKey: string, url: string, extra: Record<string, unknown> = {}): Promise<EndpointJson> {
  const res = await http(stack, 'POST', '/v2/webhooks/endpoints', { apiKey, body: { url, ...extra } });
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${res.text}`);
  return res.json as unknown as EndpointJson;
}

/**
 * Events straight into a team's log, each in its own transaction as any writer records them, then
 * the endpoints that got work are woken. Returns the event ids.
 */
export async function emitEvents(
  stack: TestStack,
  teamId: string,
  count: number,
  options: { eventType?: string; subjectId?: string | null; data?: (i: number, id: string) => Record<string, unknown> } = {},
): Promise<string[]> {
  const ids: string[] = [];
  const woken = new Set<string>();
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    ids.push(id);
    const endpoints = await stack.db.db.transaction((tx) =>
      recordTeamEvent(tx, {
        id,
        teamId,
        eventType: options.eventType ?? 'labtest.order.updated',
        data: options.data?.(i, id) ?? { n: i, id },
        subjectId: options.subjectId ?? null,
        createdAt: new Date(),
      }),
    );
    endpoints.forEach((e) => woken.add(e));
  }
  await wakeEndpoints(stack.temporal, [...woken]);
  return ids;
}

/** Loopback receivers started by a test file, all stopped after each test. */
export class Receivers {
  private readonly running: TestReceiver[] = [];

  async start(behaviour?: Behaviour, port?: number): Promise<TestReceiver> {
    const r = new TestReceiver(behaviour);
    this.running.push(r);
    return r.start(port);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.running.splice(0).map((r) => r.stop()));
  }
}
