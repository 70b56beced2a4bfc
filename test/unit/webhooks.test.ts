import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { isValidFilter, matchesFilters } from '../../domain/webhooks/event-types.js';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, outcomeOf, parseSchedule, retryAfterSeconds, shouldDisable } from '../../domain/webhooks/retry.js';
import { newEndpointSecret, signedHeaders, webhookSigner } from '../../domain/webhooks/signing.js';
import { createSecretBox } from '../../lib/secret-box.js';

const now = new Date('2026-11-23T10:00:00Z');
const schedule = [...DEFAULT_RETRY_SCHEDULE_SECONDS];
const after = (o: ReturnType<typeof outcomeOf>) => (o.status === 'pending' ? (o.nextAttemptAt.getTime() - now.getTime()) / 1000 : o.status);

describe('retry schedule', () => {
  it('follows Svix: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed', () => {
    const fail = { statusCode: 500, retryAfter: null };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => after(outcomeOf(fail, n, schedule, now)))).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(outcomeOf(fail, 8, schedule, now)).toEqual({ status: 'failed', disableEndpoint: false, reason: 'no success after 8 attempts' });
  });

  it('counts any 2xx as delivered and 3xx, timeouts and refusals as failures', () => {
    expect(outcomeOf({ statusCode: 204, retryAfter: null }, 1, schedule, now).status).toBe('delivered');
    expect(after(outcomeOf({ statusCode: 302, retryAfter: null }, 1, schedule, now))).toBe(5);
    expect(after(outcomeOf({ statusCode: null, error: 'ECONNREFUSED' }, 2, schedule, now))).toBe(300);
  });

  it('410 fails the delivery and disables the endpoint', () => {
    expect(outcomeOf({ statusCode: 410, retryAfter: null }, 1, schedule, now)).toMatchObject({ status: 'failed', disableEndpoint: true });
  });

  it('honours Retry-After on 429/503 (seconds or a date), never shortening the schedule, capped', () => {
    expect(after(outcomeOf({ statusCode: 429, retryAfter: '120' }, 1, schedule, now))).toBe(120);
    expect(after(outcomeOf({ statusCode: 503, retryAfter: '1' }, 2, schedule, now))).toBe(300);
    expect(after(outcomeOf({ statusCode: 429, retryAfter: new Date(now.getTime() + 60_000).toUTCString() }, 1, schedule, now))).toBe(60);
    expect(after(outcomeOf({ statusCode: 429, retryAfter: '999999' }, 1, schedule, now))).toBe(36000);
    expect(after(outcomeOf({ statusCode: 500, retryAfter: '120' }, 1, schedule, now))).toBe(5); // only 429/503
    expect(retryAfterSeconds('soon', now)).toBeNull();
  });

  it('disables after the failing window, and parses schedules', () => {
    expect(shouldDisable(new Date(now.getTime() - 5 * 86400_000), now, 5 * 86400)).toBe(true);
    expect(shouldDisable(new Date(now.getTime() - 4 * 86400_000), now, 5 * 86400)).toBe(false);
    expect(shouldDisable(null, now, 5 * 86400)).toBe(false);
    expect(parseSchedule('0, 0.5,2')).toEqual([0, 0.5, 2]);
    expect(() => parseSchedule('0,-1')).toThrow();
  });
});

describe('event filters', () => {
  it('matches exact types and dotted prefixes; no filters means everything', () => {
    expect(matchesFilters('labtest.order.updated', [])).toBe(true);
    expect(matchesFilters('labtest.order.updated', ['labtest.'])).toBe(true);
    expect(matchesFilters('labtest.order.updated', ['labtest.order.created'])).toBe(false);
    expect(matchesFilters('labtestx.order', ['labtest.'])).toBe(false);
    expect(matchesFilters('daily.data.glucose.created', ['daily.data.'])).toBe(true);
  });

  it('accepts known types and prefixes only', () => {
    for (const ok of ['labtest.', 'labtest.order.created', 'daily.data.glucose.updated', 'daily.data.', 'lab_report.']) expect(isValidFilter(ok), ok).toBe(true);
    for (const bad of ['labtest', 'labtest.order.exploded', 'nope.', '*', '']) expect(isValidFilter(bad), bad).toBe(false);
  });
});

describe('signatures and sealed secrets', () => {
  it('signs so the Standard Webhooks verifier accepts it with either secret during a rotation', () => {
    const [a, b] = [newEndpointSecret(), newEndpointSecret()];
    const at = new Date();
    const body = JSON.stringify({ event_type: 'labtest.order.created', data: {} });
    const headers = signedHeaders([a, b], 'evt-1', at, body);
    expect(headers['svix-signature']).toBe(headers['webhook-signature']);
    expect(() => new Webhook(a).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(b).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newEndpointSecret()).verify(body, headers)).toThrow();
  });

  it('signs with node:crypto exactly as the library does (prebuilt keys), and refuses what it refuses', () => {
    const [a, b] = [newEndpointSecret(), newEndpointSecret()];
    const at = new Date(1_700_000_000_123);
    const body = JSON.stringify({ event_type: 'labtest.order.updated', data: { name: 'Zoë \u{1F600}', n: 1 } }) + '\ud800'; // a lone surrogate: both encode it as U+FFFD
    const headers = webhookSigner([a, b])('evt-2', at, body);
    expect(headers['webhook-signature']).toBe(`${new Webhook(a).sign('evt-2', at, body)} ${new Webhook(b).sign('evt-2', at, body)}`);
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(() => webhookSigner(['whsec_'])).toThrow();
    expect(() => webhookSigner(['whsec_not base64!'])).toThrow();
  });

  it('seals with AES-GCM: round-trips, and refuses tampering and the wrong key', () => {
    const box = createSecretBox(Buffer.alloc(32, 1));
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed); // fresh IV each time
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_xyz').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 2)).open(sealed)).toThrow();
  });
});
