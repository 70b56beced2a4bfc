import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTeamEvent } from '../../db/queries/events.js';
import { endRound, roundUnderWay, startRound } from '../../db/queries/webhooks.js';
import { wakeEndpoints } from '../../lib/webhook-wake.js';
import { webhookEndpointWorkflowId } from '../../workflows/webhooks/definitions.js';
import { eventually, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { createEndpoint } from '../support/webhooks.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

/** A receiver that holds every request until `open()`; it notes each `webhook-id` it answered. */
async function gatedReceiver() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const ids: string[] = [];
  let arrived = 0;
  const server: Server = createServer((req, res) => {
    arrived++;
    req.resume();
    req.on('end', () => {
      void gate.then(() => {
        ids.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    ids,
    arrived: () => arrived,
    open: release,
    stop: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function record(teamId: string): Promise<{ id: string; endpoints: string[] }> {
  const id = randomUUID();
  const endpoints = await stack.db.db.transaction((tx) =>
    recordTeamEvent(tx, { id, teamId, eventType: 'labtest.order.updated', data: { id }, createdAt: new Date() }),
  );
  return { id, endpoints };
}

async function signalsTo(endpointId: string): Promise<number> {
  const history = await stack.temporal.workflow.getHandle(webhookEndpointWorkflowId(endpointId)).fetchHistory();
  return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length;
}

describe('wake-up signals and delivery rounds under way', () => {
  it('sends no signal for events recorded while a round is under way, delivers them all, and ends the round', async () => {
    const team = await newTeam(stack);
    const receiver = await gatedReceiver();
    try {
      const ep = await createEndpoint(stack, team.apiKey, receiver.url);
      const probe = (id: string) => roundUnderWay(stack.db.db, id);

      const first = await record(team.teamId);
      expect(first.endpoints).toEqual([ep.id]);
      await wakeEndpoints(stack.temporal, first.endpoints, probe);
      // The round POSTs the first event and waits for the receiver: it is under way.
      await eventually(async () => receiver.arrived() >= 1 && (await roundUnderWay(stack.db.db, ep.id)), 20_000, 20);
      const signalsBefore = await signalsTo(ep.id);
      expect(signalsBefore).toBe(1);

      const later: string[] = [];
      const answers: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        const e = await record(team.teamId);
        later.push(e.id);
        await wakeEndpoints(stack.temporal, e.endpoints, async (id) => {
          const busy = await probe(id);
          answers.push(busy);
          return busy;
        });
      }
      expect(answers).toEqual([true, true, true]);

      receiver.open();
      await eventually(async () => [first.id, ...later].every((id) => receiver.ids.includes(id)), 30_000, 50);
      // Delivered by the round that was under way (or the one right after it), without a signal.
      expect(await signalsTo(ep.id)).toBe(signalsBefore);
      // The round ends: from then on writers signal again.
      await eventually(async () => !(await roundUnderWay(stack.db.db, ep.id)), 20_000, 50);
      const last = await record(team.teamId);
      await wakeEndpoints(stack.temporal, last.endpoints, probe);
      // (a signal that arrives during a workflow task is written to the history after it)
      await eventually(async () => (await signalsTo(ep.id)) === signalsBefore + 1, 10_000, 50);
      await eventually(async () => receiver.ids.includes(last.id), 20_000, 50);
      expect(await signalsTo(ep.id)).toBe(signalsBefore + 1); // two signals in all, for five events
    } finally {
      await receiver.stop();
    }
  }, 90_000);

  it('holds a round under way only until its lease runs out or it ends', async () => {
    const endpointId = randomUUID();
    await startRound(stack.db.db, endpointId, new Date(Date.now() - 1000));
    expect(await roundUnderWay(stack.db.db, endpointId)).toBe(false); // a worker that died mid-round
    await startRound(stack.db.db, endpointId, new Date(Date.now() + 30_000));
    expect(await roundUnderWay(stack.db.db, endpointId)).toBe(true);
    await endRound(stack.db.db, endpointId);
    expect(await roundUnderWay(stack.db.db, endpointId)).toBe(false);
  });
});
