import { describe, expect, it } from 'vitest';
import { eventStatus, parseEventStatus } from '../../domain/orders/status.js';
import {
  canCancel,
  decide,
  initialState,
  nextTowards,
  type TestkitCommand,
  type TestkitState,
} from '../../domain/orders/testkit-lifecycle.js';

function run(start: TestkitState, cmds: TestkitCommand[]): { state: TestkitState; steps: string[] } {
  let state = start;
  const steps: string[] = [];
  for (const cmd of cmds) {
    const d = decide(state, cmd);
    if (!d.ok) throw new Error(`${cmd.kind}: ${d.reason}`);
    steps.push(...d.steps);
    state = d.next;
  }
  return { state, steps };
}

const ship = (event: Extract<TestkitCommand, { kind: 'shipment' }>['event']): TestkitCommand => ({ kind: 'shipment', event });

/** Follows nextTowards until it stops, returning the statuses passed through. */
function simulate(start: TestkitState, target: Parameters<typeof nextTowards>[1]): { state: TestkitState; steps: string[] } {
  let state = start;
  const steps: string[] = [];
  for (let i = 0; i < 20; i++) {
    const cmd = nextTowards(state, target);
    if (!cmd) break;
    const d = decide(state, cmd);
    if (!d.ok) throw new Error(d.reason);
    steps.push(...d.steps);
    state = d.next;
  }
  return { state, steps };
}

describe('testkit lifecycle', () => {
  it('walks a registered kit along the documented path', () => {
    const { steps } = run(initialState(false), [
      { kind: 'activate' }, ship('transit_customer'), ship('out_for_delivery'), ship('with_customer'), ship('transit_lab'),
      ship('delivered_to_lab'), { kind: 'results', final: false }, { kind: 'results', final: true },
    ]);
    expect(steps).toEqual([
      'requisition_created', 'transit_customer', 'out_for_delivery', 'with_customer', 'transit_lab', 'delivered_to_lab',
      'partial_results', 'completed',
    ]);
  });

  it('ships an unregistered kit, and lets it travel to the lab only once registered', () => {
    const { state, steps } = run(initialState(true), [{ kind: 'activate' }, ship('transit_customer'), ship('with_customer')]);
    expect(steps).toEqual(['awaiting_registration', 'transit_customer', 'with_customer']);
    expect(decide(state, ship('transit_lab'))).toEqual({ ok: false, reason: 'the kit must be registered before it travels to the lab' });
    const after = run(state, [{ kind: 'register' }, ship('transit_lab')]);
    expect(after.steps).toEqual(['registered', 'requisition_created', 'transit_lab']);
    expect(decide(after.state, { kind: 'register' }).ok).toBe(false);
  });

  it('allows cancellation only before the kit ships', () => {
    const ordered = initialState(true);
    expect(canCancel(ordered)).toBe(true);
    const awaiting = run(ordered, [{ kind: 'activate' }]).state;
    expect(decide(awaiting, { kind: 'cancel', as: 'cancelled' })).toMatchObject({ ok: true, steps: ['cancelled'] });
    const shipped = run(awaiting, [ship('transit_customer')]).state;
    expect(decide(shipped, { kind: 'cancel', as: 'cancelled' })).toEqual({
      ok: false,
      reason: 'cancellation is not possible while the order is transit_customer',
    });
  });

  it('refuses everything once terminal, and failures only from their legs', () => {
    const inLab = run(initialState(false), [{ kind: 'activate' }, ship('transit_customer'), ship('with_customer'), ship('transit_lab')]).state;
    expect(decide(inLab, ship('failure_to_deliver_to_customer')).ok).toBe(false);
    const lost = run(inLab, [ship('lost')]).state;
    expect(lost.low).toBe('lost');
    for (const cmd of [{ kind: 'activate' }, ship('delivered_to_lab'), { kind: 'cancel', as: 'cancelled' }] as TestkitCommand[]) {
      expect(decide(lost, cmd)).toEqual({ ok: false, reason: 'the order is already lost' });
    }
    expect(decide(inLab, { kind: 'results', final: true }).ok).toBe(false);
    expect(decide(inLab, { kind: 'sample_error' }).ok).toBe(false);
  });

  it('recovers from a problem in transit', () => {
    const { steps } = run(initialState(false), [
      { kind: 'activate' }, ship('transit_customer'), ship('problem_in_transit_customer'), ship('out_for_delivery'), ship('with_customer'),
    ]);
    expect(steps).toEqual(['requisition_created', 'transit_customer', 'problem_in_transit_customer', 'out_for_delivery', 'with_customer']);
  });
});

describe('simulation planning (nextTowards)', () => {
  it('reaches completed from a fresh registered kit', () => {
    expect(simulate(initialState(false), 'completed').state.low).toBe('completed');
  });
  it.each([
    ['failure_to_deliver_to_customer', ['requisition_created', 'transit_customer', 'failure_to_deliver_to_customer']],
    ['lost', ['requisition_created', 'transit_customer', 'out_for_delivery', 'with_customer', 'transit_lab', 'lost']],
    ['sample_error', ['requisition_created', 'transit_customer', 'out_for_delivery', 'with_customer', 'transit_lab', 'delivered_to_lab', 'sample_error']],
    ['cancelled', ['cancelled']],
  ] as const)('reaches %s along the real path', (target, expected) => {
    expect(simulate(initialState(false), target).steps).toEqual(expected);
  });
  it('stops at with_customer for an unregistered kit (registration needs the customer)', () => {
    const { state } = simulate(initialState(true), 'completed');
    expect(state.low).toBe('with_customer');
    expect(state.registered).toBe(false);
  });
});

describe('dotted statuses', () => {
  it('builds and parses <top>.<method>.<low>', () => {
    expect(eventStatus('testkit', 'delivered_to_lab')).toBe('sample_with_lab.testkit.delivered_to_lab');
    expect(eventStatus('on_site_collection', 'draw_completed')).toBe('sample_with_lab.on_site_collection.draw_completed');
    expect(eventStatus('at_home_phlebotomy', 'draw_completed')).toBe('collecting_sample.at_home_phlebotomy.draw_completed');
    expect(parseEventStatus('completed.testkit.completed')).toEqual({ method: 'testkit', low: 'completed' });
    expect(parseEventStatus('received.testkit.completed')).toBeNull();
    expect(parseEventStatus('completed.teleport.completed')).toBeNull();
    expect(parseEventStatus('nonsense')).toBeNull();
  });
});
