import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * postgres.js keeps its connections in queues (open, busy, full, …) and moves a connection between them on
 * every query. Its `Queue` leaves a hole for each `shift` and only drops them when the queue empties; under
 * steady load the busy queue never empties, and `remove` of a connection already shifted out scanned every
 * hole: one more per query, so the pool slowed down the longer the load lasted (10–25% of a server's CPU in
 * bench:api after a few seconds). patches/postgres+3.4.9.patch (applied by patch-package on install) makes
 * `remove` search the live part only and compacts the array once half of it is holes.
 */
// the package's root: `require` resolves it to cjs/src/index.js (its exports map has no ./package.json)
const pkgDir = join(dirname(createRequire(import.meta.url).resolve('postgres')), '..', '..');
type Queue<T> = { readonly length: number; push(x: T): T; shift(): T | undefined; remove(x: T): T | null };
const variants = ['src/queue.js', 'cjs/src/queue.js', 'cf/src/queue.js'];

async function load(variant: string): Promise<<T>(initial?: T[]) => Queue<T>> {
  const mod = (await import(pathToFileURL(join(pkgDir, variant)).href)) as { default: <T>(initial?: T[]) => Queue<T> };
  return mod.default;
}

describe.each(variants)('postgres.js Queue (%s) as patched', (variant) => {
  it('is the patched code: remove searches from the live part only, shift compacts', () => {
    const text = readFileSync(join(pkgDir, variant), 'utf8');
    expect(text).toMatch(/indexOf\(x, index\)/);
    expect(text).toMatch(/xs\.slice\(index\)/);
  });

  it('stays first-in first-out with its length right across many compactions', async () => {
    const Queue = await load(variant);
    const q = Queue<number>();
    const model: number[] = [];
    let next = 0;
    // a queue that never empties: two in, one out, then drained at the end
    for (let i = 0; i < 5000; i++) {
      q.push(next);
      model.push(next++);
      if (i % 2 === 1) expect(q.shift()).toBe(model.shift());
      expect(q.length).toBe(model.length);
    }
    while (model.length) expect(q.shift()).toBe(model.shift());
    expect(q.length).toBe(0);
    expect(q.shift()).toBeUndefined();
  });

  it('removes a live element anywhere, and nothing for one already shifted out', async () => {
    const Queue = await load(variant);
    const conns = Array.from({ length: 10 }, (_, i) => ({ id: i }));
    const q = Queue(conns);
    // the pool's busy-queue pattern under load: take the first connection, give it a query, put it back
    for (let round = 0; round < 10_000; round++) {
      const c = q.shift()!;
      expect(q.remove(c)).toBeNull(); // move(): it is no longer in the queue
      q.push(c);
    }
    expect(q.length).toBe(10);
    const third = conns[2]!;
    expect(q.remove(third)).toBe(third);
    expect(q.length).toBe(9);
    expect(q.remove(third)).toBeNull();
    const order: number[] = [];
    while (q.length) order.push(q.shift()!.id);
    expect(order).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9]);
  });
});
