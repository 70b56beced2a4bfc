import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEvent } from '../../activities/webhooks/http.js';
import { SsrfRefusedError, checkAddress, createGuardedRequest, guardedLookup, refusedEndpointUrl, type Resolver } from '../../lib/ssrf.js';

const production = { allowLoopback: false };
const sandbox = { allowLoopback: true };

// Only 127.0.0.0/8 is ever connected to in these tests; every other address is refused before any socket opens.
describe('checkAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'], // cloud metadata
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'scoped'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'ipv4Mapped of private'],
    ['::ffff:a00:1', 'ipv4Mapped of private'],
    ['::ffff:169.254.169.254', 'ipv4Mapped of linkLocal'],
    ['::ffff:127.0.0.1', 'ipv4Mapped of loopback'],
    ['::10.0.0.1', 'ipv4Compatible of private'],
    ['::8.8.8.8', 'ipv4Compatible'],
    ['64:ff9b::10.0.0.1', 'rfc6052 of private'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052 of linkLocal'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['2002:a00:1::1', '6to4 of private'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s in production (%s)', (ip, range) => {
    expect(checkAddress(ip, production)).toEqual({ ok: false, range });
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])(
    'allows the public address %s',
    (ip) => {
      expect(checkAddress(ip, production)).toEqual({ ok: true });
    },
  );

  it('the sandbox allows loopback and nothing else that is internal', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(checkAddress(ip, sandbox).ok).toBe(true);
    for (const ip of ['10.0.0.1', '169.254.169.254', 'fd00::1', '::127.0.0.1']) expect(checkAddress(ip, sandbox).ok).toBe(false);
  });
});

describe('refusedEndpointUrl (creation and PATCH)', () => {
  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
    'https://127.0.0.1:5432/',
    'https://[::1]/',
    'https://[fd00::1]/hook',
    'https://[::ffff:192.168.0.1]/',
    'https://localhost/',
    'https://api.localhost/',
    'https://metadata.google.internal/',
    'https://printer.local/',
    'https://intranet/',
    'https://router.home.arpa/',
  ])('refuses %s in production', (url) => {
    expect(refusedEndpointUrl(url, production)).toMatch(/public address/);
  });

  it('allows public names and addresses, and loopback only in sandbox', () => {
    expect(refusedEndpointUrl('https://hooks.example.com/x', production)).toBeNull();
    expect(refusedEndpointUrl('https://8.8.8.8/', production)).toBeNull();
    expect(refusedEndpointUrl('http://127.0.0.1:4000/', sandbox)).toBeNull();
    expect(refusedEndpointUrl('http://localhost:4000/', sandbox)).toBeNull();
    expect(refusedEndpointUrl('https://10.1.2.3/', sandbox)).toMatch(/10\.1\.2\.3 is private/);
  });
});

/** A resolver that answers from a table (no real DNS), counting how often each name is asked. */
function fakeResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    return (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

describe('guardedLookup', () => {
  const lookupOnce = (lookup: ReturnType<typeof guardedLookup>, host: string, all: boolean) =>
    new Promise<unknown>((resolve, reject) => {
      lookup(host, { all }, (err, address) => (err ? reject(err) : resolve(address)));
    });

  it('refuses a name resolving to a private address, or to a mix of public and private', async () => {
    const { resolve } = fakeResolver({ 'evil.example.com': ['10.0.0.7'], 'mixed.example.com': ['8.8.8.8', '169.254.169.254'] });
    const lookup = guardedLookup(production, resolve);
    await expect(lookupOnce(lookup, 'evil.example.com', false)).rejects.toThrow('evil.example.com resolves to 10.0.0.7 (private)');
    await expect(lookupOnce(lookup, 'mixed.example.com', true)).rejects.toBeInstanceOf(SsrfRefusedError);
  });

  it('hands back the checked address, in both lookup callback forms', async () => {
    const { resolve } = fakeResolver({ 'hooks.example.com': ['8.8.4.4'] });
    const lookup = guardedLookup(production, resolve);
    await expect(lookupOnce(lookup, 'hooks.example.com', false)).resolves.toBe('8.8.4.4');
    await expect(lookupOnce(lookup, 'hooks.example.com', true)).resolves.toEqual([{ address: '8.8.4.4', family: 4 }]);
  });
});

describe('createGuardedRequest (what deliveries use)', () => {
  let server: Server;
  let port: number;
  const seen: IncomingMessage[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\u0000done');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('connects to the address it checked, keeping the URL host as Host (pinned: one resolution per connection)', async () => {
    const { resolve, asked } = fakeResolver({ 'receiver.example.test': ['127.0.0.1'] });
    const guarded = createGuardedRequest(sandbox, resolve);
    const res = await guarded(`http://receiver.example.test:${port}/hook`, { method: 'POST', body: '{}' });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    expect(seen.at(-1)!.headers.host).toBe(`receiver.example.test:${port}`);
    expect(asked).toEqual(['receiver.example.test']);
  });

  it('refuses a name that resolves to loopback in production before any connection', async () => {
    const before = seen.length;
    const { resolve } = fakeResolver({ 'rebind.example.com': ['127.0.0.1'] });
    const guarded = createGuardedRequest(production, resolve);
    await expect(guarded(`http://rebind.example.com:${port}/`, { method: 'POST' })).rejects.toThrow(/resolves to 127\.0\.0\.1 \(loopback\)/);
    expect(seen.length).toBe(before);
  });

  it('refuses literal internal addresses without resolving or connecting', async () => {
    const { resolve, asked } = fakeResolver({});
    const guarded = createGuardedRequest(production, resolve);
    for (const url of [`http://127.0.0.1:${port}/`, 'https://169.254.169.254/', 'https://[::ffff:10.0.0.1]/', 'https://[fd00::1]/']) {
      await expect(guarded(url, { method: 'POST' })).rejects.toBeInstanceOf(SsrfRefusedError);
    }
    expect(asked).toEqual([]);
  });

  it('does not follow redirects (a 3xx is an answer, not a delivery)', async () => {
    const before = seen.length;
    const guarded = createGuardedRequest(sandbox, fakeResolver({}).resolve);
    const res = await guarded(`http://127.0.0.1:${port}/redirect`, { method: 'POST' });
    expect(res.statusCode).toBe(302);
    await res.body.dump();
    expect(seen.length).toBe(before + 1);
  });

  it('postEvent records a refusal as a final result, and stores answers without NUL bytes', async () => {
    const refused = await postEvent('https://10.0.0.1/', {}, '{}', 1000, createGuardedRequest(production, fakeResolver({}).resolve));
    expect(refused).toMatchObject({ refused: true, result: { statusCode: null, error: 'refused: 10.0.0.1 is private' } });
    const ok = await postEvent(`http://127.0.0.1:${port}/`, {}, '{}', 1000, createGuardedRequest(sandbox, fakeResolver({}).resolve));
    expect(ok.result.statusCode).toBe(200);
    expect(ok.responseBody).toBe('okdone');
    const named = await postEvent(`http://rebind.example.com:${port}/`, {}, '{}', 1000, createGuardedRequest(production, fakeResolver({ 'rebind.example.com': ['127.0.0.1'] }).resolve));
    expect(named).toMatchObject({ refused: true, result: { statusCode: null, error: 'refused: rebind.example.com resolves to 127.0.0.1 (loopback)' } });
  });

  it('postEvent answers a receiver that does not answer in time with a timeout, not a hang', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const sent = await postEvent(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, {}, '{}', 200, createGuardedRequest(sandbox, fakeResolver({}).resolve));
      expect(sent.result).toEqual({ statusCode: null, error: 'no answer within 200 ms' });
      expect(sent.durationMs).toBeGreaterThanOrEqual(190);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
