import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signedHeaders } from '../../domain/webhooks/signing.js';
import { formatIgnored, formatVerdict, parseListenArgs, startBanner, verifyRequest } from '../../lib/webhook-listen.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
const ANSI = '\u001b['; // an escape sequence starts so

const envelope = {
  event_type: 'labtest.order.updated',
  data: { id: 'order-1', status: 'completed', events: [{ id: 1, status: 'ordered' }] },
  team_id: 'team-1',
  user_id: 'user-1',
  client_user_id: 'patient-0001',
};
const body = JSON.stringify(envelope);

/** Headers as the service sends them (domain/webhooks/signing.ts), optionally only one set of names. */
function headersFor(s: string, at = new Date(), only?: 'webhook' | 'svix') {
  const all = signedHeaders([s], 'evt-1', at, body);
  return only ? Object.fromEntries(Object.entries(all).filter(([k]) => k.startsWith(`${only}-`))) : all;
}

describe('parseListenArgs', () => {
  it('takes --secret with defaults for port, path and host', () => {
    expect(parseListenArgs(['--secret', secret])).toEqual({ ok: true, options: { secret, port: 4000, path: '/', host: '127.0.0.1' } });
    expect(parseListenArgs(['--secret', secret, '--port', '0', '--path', '/hooks', '--host', '0.0.0.0'])).toEqual({
      ok: true,
      options: { secret, port: 0, path: '/hooks', host: '0.0.0.0' },
    });
  });

  it('refuses to run without a secret, and says where the secret comes from', () => {
    for (const argv of [[], ['--port', '4000'], ['--secret', '  ']]) {
      const r = parseListenArgs(argv);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.help).toBe(false);
        expect(r.message).toMatch(/needs --secret whsec_/);
        expect(r.message).toMatch(/POST \/v2\/webhooks\/endpoints/);
      }
    }
  });

  it('refuses bad secrets, ports, paths and unknown options with a reason', () => {
    const cases: [string[], RegExp][] = [
      [['--secret', 'not-a-secret'], /must be an endpoint secret/],
      [['--secret', 'whsec_'], /not valid/],
      [['--secret', 'whsec_abc'], /not valid/],
      [['--secret', secret, '--port', 'eighty'], /--port must be a number/],
      [['--secret', secret, '--port', '70000'], /--port must be a number/],
      [['--secret', secret, '--port=-1'], /--port must be a number/],
      [['--secret', secret, '--port', '-1'], /argument is ambiguous/],
      [['--secret', secret, '--path', 'hooks'], /--path must start with "\/"/],
      [['--secret', secret, '--path', '/a?b'], /--path must start with "\/"/],
      [['--secret', secret, '--verbose'], /Unknown option '--verbose'/],
      [['--secret', secret, 'extra'], /positional/],
    ];
    for (const [argv, message] of cases) {
      const r = parseListenArgs(argv);
      expect(r.ok, argv.join(' ')).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
  });

  it('--help asks for the usage line', () => {
    const r = parseListenArgs(['--help']);
    expect(r).toMatchObject({ ok: false, help: true, message: expect.stringMatching(/^usage: npm run webhooks:listen/) });
  });
});

describe('verifyRequest', () => {
  const webhook = new Webhook(secret);

  it("accepts the service's signature under the webhook-* names, and under the svix-* names alone", () => {
    const both = verifyRequest(webhook, headersFor(secret), body);
    expect(both).toMatchObject({ ok: true, id: 'evt-1', headerNames: 'webhook', envelope });
    const svix = verifyRequest(webhook, headersFor(secret, new Date(), 'svix'), body);
    expect(svix).toMatchObject({ ok: true, id: 'evt-1', headerNames: 'svix', envelope });
  });

  it('accepts when one of several signatures matches (during a secret rotation)', () => {
    const h = signedHeaders([otherSecret, secret], 'evt-1', new Date(), body);
    expect(verifyRequest(webhook, h, body).ok).toBe(true);
  });

  it('refuses a changed body, another secret, missing headers and an old timestamp, with the reason', () => {
    expect(verifyRequest(webhook, headersFor(secret), body.replace('completed', 'cancelled'))).toEqual({
      ok: false,
      id: 'evt-1',
      reason: 'No matching signature found',
    });
    expect(verifyRequest(webhook, headersFor(otherSecret), body)).toMatchObject({ ok: false, reason: 'No matching signature found' });
    expect(verifyRequest(webhook, {}, body)).toEqual({ ok: false, id: null, reason: 'Missing required headers' });
    const old = new Date(Date.now() - 10 * 60 * 1000);
    expect(verifyRequest(webhook, headersFor(secret, old), body)).toMatchObject({ ok: false, reason: 'Message timestamp too old' });
  });

  it('a signed body that is not JSON verifies and is kept raw', () => {
    const at = new Date();
    const raw = 'plain text';
    const h = { 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': webhook.sign('x', at, raw) };
    expect(verifyRequest(webhook, h, raw)).toEqual({ ok: true, id: 'x', headerNames: 'webhook', envelope: null, body: raw });
  });
});

describe('formatting', () => {
  const at = new Date('2026-05-01T12:34:56.789Z');
  const webhook = new Webhook(secret);

  it('a verified event: time, event type, webhook-id, team and user ids, then data indented; no colours unless asked', () => {
    const text = formatVerdict(verifyRequest(webhook, headersFor(secret), body), at, { color: false });
    const [head, ...rest] = text.split('\n');
    expect(head).toBe(
      '2026-05-01T12:34:56.789Z  ✓ verified  labtest.order.updated  webhook-id evt-1  team team-1  user user-1  client_user_id patient-0001',
    );
    expect(rest.join('\n')).toBe(
      JSON.stringify(envelope.data, null, 2)
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n'),
    );
    expect(text).not.toContain(ANSI);
    expect(formatVerdict(verifyRequest(webhook, headersFor(secret), body), at, { color: true })).toContain(ANSI);
  });

  it('a repeated webhook-id is pointed out; svix-only headers are named', () => {
    const text = formatVerdict(verifyRequest(webhook, headersFor(secret, new Date(), 'svix'), body), at, { color: false, seenBefore: 2 });
    expect(text.split('\n')[0]).toContain('(svix-* headers)  seen 2× before: same event, deduplicate on webhook-id');
  });

  it('a refused request: one line with the reason and the claimed id', () => {
    const text = formatVerdict(verifyRequest(webhook, headersFor(otherSecret), body), at, { color: false });
    expect(text).toBe('2026-05-01T12:34:56.789Z  ✗ 401 refused: No matching signature found  webhook-id evt-1');
    expect(formatVerdict({ ok: false, id: null, reason: 'Missing required headers' }, at, { color: false })).toBe(
      '2026-05-01T12:34:56.789Z  ✗ 401 refused: Missing required headers',
    );
  });

  it('other requests and the start banner', () => {
    expect(formatIgnored('GET', '/favicon.ico', 404, at, { color: false, listensOn: '/hooks' })).toBe(
      '2026-05-01T12:34:56.789Z  GET /favicon.ico → 404 (this receiver takes POST /hooks)',
    );
    const banner = startBanner('http://127.0.0.1:4000/', { color: false, apiUrl: 'http://localhost:8000' });
    expect(banner).toContain('on http://127.0.0.1:4000/');
    expect(banner).toContain(`curl -X POST http://localhost:8000/v2/webhooks/endpoints`);
    expect(banner).toContain(`{"url": "http://127.0.0.1:4000/"}`);
    expect(banner).not.toContain(ANSI);
  });
});
