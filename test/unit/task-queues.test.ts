import { describe, expect, it } from 'vitest';
import { QUEUE_NAMES, SERVICE_TASK_QUEUE, TASK_QUEUES, parseQueues } from '../../domain/temporal.js';

describe('task queues per workload', () => {
  it('has one distinct queue per workload, none of them the old single queue', () => {
    expect(QUEUE_NAMES).toEqual(['orders', 'webhooks', 'parsing', 'users', 'ingestion']);
    const names = Object.values(TASK_QUEUES);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain(SERVICE_TASK_QUEUE);
  });

  it('parses --queues, and refuses an empty or unknown one by name', () => {
    expect(parseQueues('orders,webhooks')).toEqual(['orders', 'webhooks']);
    expect(parseQueues(' parsing , parsing ')).toEqual(['parsing']);
    expect(() => parseQueues('')).toThrow(/one or more of orders, webhooks/);
    expect(() => parseQueues('orders,ocr')).toThrow(/unknown queue ocr/);
  });
});
