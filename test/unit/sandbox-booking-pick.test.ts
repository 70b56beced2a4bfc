import { describe, expect, it } from 'vitest';
import { spreadPick } from '../../activities/appointments/index.js';

const slots = (n: number, full: number[] = []) => Array.from({ length: n }, (_, i) => ({ booking_key: full.includes(i) ? null : `key-${i}` }));
const orderIds = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`);

describe('spreadPick: the slot a simulated booking reaches for', () => {
  it('is one of the first 16 open slots, the same each time for the same order and slots', () => {
    const all = slots(40, [0, 3]);
    const firstOpen = all.filter((s) => s.booking_key).slice(0, 16).map((s) => s.booking_key);
    for (const id of orderIds) {
      const key = spreadPick(all, id);
      expect(firstOpen).toContain(key);
      expect(spreadPick(all, id)).toBe(key);
    }
  });

  it('spreads orders over the open slots instead of sending all to the first', () => {
    const picked = new Set(orderIds.map((id) => spreadPick(slots(40), id)));
    expect(picked.size).toBe(16);
  });

  it('takes another slot once the one it chose is full', () => {
    const id = orderIds[7]!;
    const first = spreadPick(slots(40), id)!;
    const taken = Number(first.slice(4));
    expect(spreadPick(slots(40, [taken]), id)).not.toBe(first);
  });

  it('gives null when no slot is open, and the only one when one is', () => {
    expect(spreadPick(slots(5, [0, 1, 2, 3, 4]), orderIds[1]!)).toBeNull();
    expect(spreadPick([], orderIds[1]!)).toBeNull();
    expect(spreadPick(slots(3, [0, 2]), orderIds[9]!)).toBe('key-1');
  });
});
