import type { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { WAKE_GAP_MS, wakeEndpoints } from '../../lib/webhook-wake.js';

/** A client whose signalWithStart records each call (workflow id, start time) and answers after `ms`. */
function fakeClient(ms: number, fail?: (n: number) => boolean) {
  const calls: { workflowId: string; at: number; done?: number }[] = [];
  const client = {
    workflow: {
      signalWithStart: async (_type: string, opts: { workflowId: string }) => {
        const call = { workflowId: opts.workflowId, at: performance.now() } as (typeof calls)[number];
        calls.push(call);
        await new Promise((r) => setTimeout(r, ms));
        call.done = performance.now();
        if (fail?.(calls.length)) throw new Error(`signal ${calls.length} failed`);
      },
    },
  } as unknown as Client;
  return { client, calls };
}

describe('wakeEndpoints', () => {
  it('sends a lone wake at once and resolves once it is answered', async () => {
    const { client, calls } = fakeClient(5);
    const t = performance.now();
    await wakeEndpoints(client, ['e1', 'e1']);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.workflowId).toBe('webhook-endpoint-e1');
    expect(calls[0]!.at - t).toBeLessThan(WAKE_GAP_MS);
    expect(calls[0]!.done).toBeDefined();
  });

  it('coalesces wakes asked for while a signal is in flight into one follow-up sent after it', async () => {
    const { client, calls } = fakeClient(20);
    const first = wakeEndpoints(client, ['e2']);
    const asked: { at: number; resolvedAfter: Promise<number> }[] = [];
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 1));
      const at = performance.now();
      asked.push({ at, resolvedAfter: wakeEndpoints(client, ['e2']).then(() => calls.length) });
    }
    await first;
    const counts = await Promise.all(asked.map((a) => a.resolvedAfter));
    expect(calls).toHaveLength(2);
    expect(counts.every((n) => n === 2)).toBe(true);
    // Each waiter was answered by a signal that started after it asked, and no sooner than the gap.
    for (const a of asked) expect(calls[1]!.at).toBeGreaterThanOrEqual(a.at);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(WAKE_GAP_MS - 1);
  });

  it('does not coalesce different endpoints', async () => {
    const { client, calls } = fakeClient(10);
    await Promise.all([wakeEndpoints(client, ['a']), wakeEndpoints(client, ['b']), wakeEndpoints(client, ['a', 'b', 'c'])]);
    expect(calls.map((c) => c.workflowId).sort()).toEqual([
      'webhook-endpoint-a',
      'webhook-endpoint-a',
      'webhook-endpoint-b',
      'webhook-endpoint-b',
      'webhook-endpoint-c',
    ]);
  });

  it('rejects the waiters of a failed signal; the next wake is sent again', async () => {
    const { client, calls } = fakeClient(5, (n) => n === 1);
    await expect(wakeEndpoints(client, ['f'])).rejects.toThrow('signal 1 failed');
    await new Promise((r) => setTimeout(r, WAKE_GAP_MS + 5));
    await wakeEndpoints(client, ['f']);
    expect(calls).toHaveLength(2);
  });

  it('sends no signal to an endpoint whose round is under way, asking after the call began', async () => {
    const { client, calls } = fakeClient(5);
    const asked: { endpointId: string; at: number }[] = [];
    const t = performance.now();
    await wakeEndpoints(client, ['busy', 'idle'], async (endpointId) => {
      asked.push({ endpointId, at: performance.now() });
      return endpointId === 'busy';
    });
    expect(asked.map((a) => a.endpointId).sort()).toEqual(['busy', 'idle']);
    expect(asked.every((a) => a.at >= t)).toBe(true);
    expect(calls.map((c) => c.workflowId)).toEqual(['webhook-endpoint-idle']);
  });

  it('signals when asking whether a round is under way fails', async () => {
    const { client, calls } = fakeClient(5);
    await wakeEndpoints(client, ['unsure'], () => Promise.reject(new Error('connection refused')));
    expect(calls.map((c) => c.workflowId)).toEqual(['webhook-endpoint-unsure']);
  });

  it('asks again for a follow-up: a round that ended meanwhile gets its signal', async () => {
    const { client, calls } = fakeClient(5);
    let underWay = true;
    const first = wakeEndpoints(client, ['r'], async () => underWay);
    const second = wakeEndpoints(client, ['r'], async () => underWay); // joins the follow-up
    await first;
    underWay = false; // the round ended before the follow-up asks
    await second;
    expect(calls.map((c) => c.workflowId)).toEqual(['webhook-endpoint-r']);
  });
});
