import { describe, expect, it } from 'vitest';
import { initialDrawState, type DrawState } from '../../domain/orders/draw-lifecycle.js';
import { DEFAULT_DEADLINES, type Lifecycle, type OrderCommand } from '../../domain/orders/lifecycle.js';
import { lifecycleFor } from '../../domain/orders/lifecycles.js';
import { onSiteLifecycle } from '../../domain/orders/on-site-lifecycle.js';
import { phlebotomyLifecycle } from '../../domain/orders/phlebotomy-lifecycle.js';
import { eventStatus, type LowLevelStatus } from '../../domain/orders/status.js';
import { testkitLifecycle, initialState } from '../../domain/orders/testkit-lifecycle.js';
import { walkInLifecycle } from '../../domain/orders/walk-in-lifecycle.js';

type Lc = Lifecycle<DrawState>;

function run(lc: Lc, start: DrawState, cmds: OrderCommand[]) {
  let state = start;
  const steps: LowLevelStatus[] = [];
  const effects: string[] = [];
  for (const cmd of cmds) {
    const d = lc.decide(state, cmd);
    if (!d.ok) throw new Error(`${cmd.kind}: ${d.reason}`);
    steps.push(...d.steps);
    effects.push(...(d.effects ?? []));
    state = d.next;
  }
  return { state, steps, effects };
}

/** The state reached by `cmds` from a fresh order. */
const at = (lc: Lc, cmds: OrderCommand[], options = { imported: false, redraw: false }) => run(lc, initialDrawState(options), cmds).state;

function simulate(lc: Lc, start: DrawState, target: LowLevelStatus) {
  let state = start;
  const steps: LowLevelStatus[] = [];
  for (let i = 0; i < 20; i++) {
    const cmd = lc.nextTowards(state, target);
    if (!cmd) break;
    const d = lc.decide(state, cmd);
    if (!d.ok) throw new Error(d.reason);
    steps.push(...d.steps);
    state = d.next;
  }
  return { state, steps };
}

const activate: OrderCommand = { kind: 'activate' };
const book: OrderCommand = { kind: 'appointment', event: 'scheduled' };
const request: OrderCommand = { kind: 'appointment', event: 'pending' };
const cancelAppointment: OrderCommand = { kind: 'appointment', event: 'cancelled' };
const drawn: OrderCommand = { kind: 'draw_completed' };
const partial: OrderCommand = { kind: 'results', final: false };
const final: OrderCommand = { kind: 'results', final: true };
const cancel: OrderCommand = { kind: 'cancel', as: 'cancelled' };

describe('at-home phlebotomy lifecycle', () => {
  const lc = phlebotomyLifecycle;

  it('walks the documented path, rescheduling on the way', () => {
    const { steps } = run(lc, initialDrawState({ imported: false, redraw: false }), [activate, request, book, book, drawn, partial, final]);
    expect(steps).toEqual([
      'requisition_created', 'appointment_pending', 'appointment_scheduled', 'appointment_scheduled', 'draw_completed', 'partial_results', 'completed',
    ]);
    expect(steps.map((s) => eventStatus('at_home_phlebotomy', s))).toContain('collecting_sample.at_home_phlebotomy.draw_completed');
  });

  it('books straight from requisition_created through appointment_pending', () => {
    expect(run(lc, at(lc, [activate]), [book]).steps).toEqual(['appointment_pending', 'appointment_scheduled']);
  });

  it('goes appointment_cancelled when the appointment is cancelled, and may book again or be cancelled', () => {
    const s = at(lc, [activate, book, cancelAppointment]);
    expect(s.low).toBe('appointment_cancelled');
    expect(run(lc, s, [book]).steps).toEqual(['appointment_pending', 'appointment_scheduled']);
    expect(run(lc, s, [cancel]).steps).toEqual(['cancelled']);
    expect(lc.decide(s, cancelAppointment)).toEqual({ ok: false, reason: 'the order has no active appointment' });
  });

  it('refuses a draw without a scheduled appointment and results before the draw', () => {
    expect(lc.decide(at(lc, [activate]), drawn).ok).toBe(false);
    expect(lc.decide(at(lc, [activate, book]), final)).toEqual({ ok: false, reason: 'reporting results is not possible while the order is appointment_scheduled' });
    expect(lc.decide(at(lc, [activate]), { kind: 'shipment', event: 'transit_customer' }).ok).toBe(false);
  });

  it('cascades an order cancel to its active appointment', () => {
    const d = lc.decide(at(lc, [activate, book]), cancel);
    expect(d).toMatchObject({ ok: true, steps: ['cancelled'], effects: ['cancel_appointment'] });
    expect(lc.decide(at(lc, [activate]), cancel)).toMatchObject({ ok: true, steps: ['cancelled'] });
    expect(lc.decide(at(lc, [activate]), cancel)).not.toHaveProperty('effects');
  });

  it('is cancellable up to draw_completed, never from partial_results or terminal statuses', () => {
    for (const cmds of [[], [activate], [activate, request], [activate, book], [activate, book, drawn]] as OrderCommand[][]) {
      expect(lc.canCancel(at(lc, cmds)), cmds.map((c) => c.kind).join()).toBe(true);
    }
    for (const cmds of [[activate, book, drawn, partial], [activate, book, drawn, final], [activate, cancel]] as OrderCommand[][]) {
      expect(lc.decide(at(lc, cmds), cancel).ok).toBe(false);
    }
  });

  it('holds an appointment booked before the requisition (reserved) and emits three events on activation', () => {
    const reserved = run(lc, initialDrawState({ imported: false, redraw: false }), [book]);
    expect(reserved.steps).toEqual([]);
    expect(reserved.state).toMatchObject({ low: 'ordered', reserved: true, appointment: 'scheduled' });
    expect(run(lc, reserved.state, [activate]).steps).toEqual(['requisition_created', 'appointment_pending', 'appointment_scheduled']);
    // cancelled before the requisition: the order stays ordered and activates plainly
    const dropped = run(lc, reserved.state, [cancelAppointment]);
    expect(dropped.state).toMatchObject({ low: 'ordered', reserved: false, appointment: 'none' });
    expect(run(lc, dropped.state, [activate]).steps).toEqual(['requisition_created']);
  });

  it('takes corrections after completion only', () => {
    const done = at(lc, [activate, book, drawn, final]);
    expect(lc.isTerminal(done)).toBe(true);
    expect(lc.takesCorrections(done)).toBe(true);
    expect(run(lc, done, [{ kind: 'correct' }, { kind: 'correct' }]).steps).toEqual(['corrected', 'corrected']);
    expect(eventStatus('at_home_phlebotomy', 'corrected')).toBe('completed.at_home_phlebotomy.corrected');
    expect(lc.decide(at(lc, [activate, book, drawn]), { kind: 'correct' }).ok).toBe(false);
  });

  it('simulates through a booked appointment and the draw', () => {
    expect(simulate(lc, initialDrawState({ imported: false, redraw: false }), 'completed').steps).toEqual([
      'requisition_created', 'appointment_pending', 'appointment_scheduled', 'draw_completed', 'completed',
    ]);
    expect(simulate(lc, initialDrawState({ imported: false, redraw: false }), 'appointment_cancelled').steps.at(-1)).toBe('appointment_cancelled');
    expect(simulate(lc, initialDrawState({ imported: false, redraw: false }), 'sample_error').steps.slice(-2)).toEqual(['draw_completed', 'sample_error']);
  });
});

describe('walk-in lifecycle', () => {
  const lc = walkInLifecycle;

  it('takes results with or without an appointment', () => {
    expect(run(lc, initialDrawState({ imported: false, redraw: false }), [activate, partial, final]).steps).toEqual(['requisition_created', 'partial_results', 'completed']);
    expect(run(lc, at(lc, [activate, book, cancelAppointment]), [final]).steps).toEqual(['completed']);
  });

  it('has no draw_completed step and does not cascade an order cancel to the PSC appointment', () => {
    expect(lc.decide(at(lc, [activate, book]), drawn)).toEqual({ ok: false, reason: 'a walk_in_test order has no draw_completed step' });
    const d = lc.decide(at(lc, [activate, book]), cancel);
    expect(d).toMatchObject({ ok: true, steps: ['cancelled'] });
    expect(d).not.toHaveProperty('effects');
  });

  it('is never cancellable after results', () => {
    expect(lc.decide(at(lc, [activate, partial]), cancel).ok).toBe(false);
  });

  it('offers a redraw when opted in and final results miss markers; otherwise completes', () => {
    const opted = at(lc, [activate], { imported: false, redraw: true });
    expect(run(lc, opted, [{ kind: 'results', final: true, missing: true }]).steps).toEqual(['redraw_available']);
    expect(run(lc, opted, [{ kind: 'results', final: true, missing: false }]).steps).toEqual(['completed']);
    expect(run(lc, at(lc, [activate]), [{ kind: 'results', final: true, missing: true }]).steps).toEqual(['completed']);
    const redraw = run(lc, opted, [{ kind: 'results', final: true, missing: true }]).state;
    expect(lc.isTerminal(redraw)).toBe(true);
    expect(lc.canCancel(redraw)).toBe(false);
    expect(lc.takesCorrections(redraw)).toBe(false);
  });

  it('simulates by booking a PSC appointment, then partial and final results', () => {
    expect(simulate(lc, initialDrawState({ imported: false, redraw: false }), 'completed').steps).toEqual([
      'requisition_created', 'appointment_pending', 'appointment_scheduled', 'partial_results', 'completed',
    ]);
    expect(simulate(lc, initialDrawState({ imported: false, redraw: true }), 'redraw_available').steps.at(-1)).toBe('redraw_available');
    expect(simulate(lc, at(lc, [activate, book]), 'appointment_scheduled').steps).toEqual([]);
  });
});

describe('on-site collection lifecycle', () => {
  const lc = onSiteLifecycle;

  it('walks ordered → requisition_created → draw_completed → completed, draw_completed under sample_with_lab', () => {
    const { steps } = run(lc, initialDrawState({ imported: false, redraw: false }), [activate, drawn, partial, final]);
    expect(steps).toEqual(['requisition_created', 'draw_completed', 'partial_results', 'completed']);
    expect(eventStatus('on_site_collection', 'draw_completed')).toBe('sample_with_lab.on_site_collection.draw_completed');
  });

  it('refuses appointments and a draw before the requisition', () => {
    expect(lc.decide(at(lc, [activate]), book)).toEqual({ ok: false, reason: 'a on_site_collection order has no appointments' });
    expect(lc.decide(at(lc, []), drawn).ok).toBe(false);
    expect(lc.decide(at(lc, [activate, drawn]), drawn).ok).toBe(false);
  });

  it('may be cancelled until results arrive', () => {
    expect(lc.decide(at(lc, [activate, drawn]), cancel).ok).toBe(true);
    expect(lc.decide(at(lc, [activate, drawn, partial]), cancel).ok).toBe(false);
  });
});

describe('shared rules of the draw methods', () => {
  const all: Lc[] = [phlebotomyLifecycle, walkInLifecycle, onSiteLifecycle];

  it('imported orders bypass the requisition', () => {
    for (const lc of all) expect(run(lc, initialDrawState({ imported: true, redraw: false }), [activate]).steps).toEqual(['requisition_bypassed']);
  });

  it('a scheduled order waits for activation at activate_by; later legs count from when they began', () => {
    for (const lc of all) {
      const fresh = initialDrawState({ imported: false, redraw: false });
      expect(lc.deadline(fresh, DEFAULT_DEADLINES)).toEqual({ from: 'activation', seconds: 0, cmd: activate, statusDetail: null });
      expect(lc.waitingFor(fresh)).toContain('activate_by');
      expect(lc.deadline(at(lc, [activate]), DEFAULT_DEADLINES)).toMatchObject({ from: 'leg', cmd: cancel, statusDetail: 'order_expired' });
    }
    const drawnOrder = at(onSiteLifecycle, [activate, drawn]);
    expect(onSiteLifecycle.deadline(drawnOrder, DEFAULT_DEADLINES)).toMatchObject({ cmd: { kind: 'sample_error' }, statusDetail: 'results_not_received' });
    expect(onSiteLifecycle.leg(drawnOrder)).not.toBe(onSiteLifecycle.leg(at(onSiteLifecycle, [activate])));
  });

  it('a lab processing block is recoverable: results still arrive after it', () => {
    const s = at(onSiteLifecycle, [activate, drawn, { kind: 'processing_blocked' }]);
    expect(s.low).toBe('lab_processing_blocked');
    expect(eventStatus('on_site_collection', 'lab_processing_blocked')).toBe('sample_with_lab.on_site_collection.lab_processing_blocked');
    expect(run(onSiteLifecycle, s, [final]).steps).toEqual(['completed']);
  });

  it('a processing error stops any unfinished order as do_not_process; a finished one refuses it', () => {
    for (const lc of all) {
      expect(run(lc, at(lc, [activate]), [{ kind: 'processing_error' }]).steps).toEqual(['do_not_process']);
      expect(lc.decide(at(lc, [activate, cancel]), { kind: 'processing_error' }).ok).toBe(false);
    }
    expect(testkitLifecycle.decide(initialState(false), { kind: 'processing_error' })).toMatchObject({ ok: true, steps: ['do_not_process'] });
  });

  it('lifecycleFor gives each method its lifecycle, with the walk-in redraw option only on walk-in orders', () => {
    const opts = { registrable: false, imported: false, redraw: true };
    expect(lifecycleFor('testkit', opts).lifecycle).toBe(testkitLifecycle);
    expect(lifecycleFor('walk_in_test', opts).initial).toMatchObject({ redraw: true });
    expect(lifecycleFor('at_home_phlebotomy', opts).initial).toMatchObject({ redraw: false });
    expect(lifecycleFor('on_site_collection', opts).lifecycle).toBe(onSiteLifecycle);
  });

  it('refuses every command once cancelled', () => {
    for (const lc of all) {
      const s = at(lc, [activate, cancel]);
      for (const cmd of [activate, book, drawn, final, cancel, { kind: 'sample_error' }] as OrderCommand[]) {
        expect(lc.decide(s, cmd)).toEqual({ ok: false, reason: 'the order is already cancelled' });
      }
    }
  });
});

describe('testkit behind the lifecycle interface', () => {
  it('refuses draw and appointment commands, and keeps its transit deadlines', () => {
    const s = testkitLifecycle.decide(initialState(false), activate);
    if (!s.ok) throw new Error(s.reason);
    expect(testkitLifecycle.decide(s.next, drawn)).toEqual({ ok: false, reason: 'a testkit order has no draw completed step' });
    expect(testkitLifecycle.decide(s.next, book).ok).toBe(false);
    const shipped = testkitLifecycle.decide(s.next, { kind: 'shipment', event: 'transit_customer' });
    if (!shipped.ok) throw new Error(shipped.reason);
    expect(testkitLifecycle.deadline(shipped.next, DEFAULT_DEADLINES)).toMatchObject({ from: 'leg', seconds: DEFAULT_DEADLINES.outboundTransitSeconds, statusDetail: 'delivery_deadline_exceeded' });
  });
});
