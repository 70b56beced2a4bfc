import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';

/**
 * Server-side request forgery guard for webhook deliveries (README "Webhooks"). Outbound calls reach only
 * public unicast addresses; the sandbox may also call loopback (local receivers). The address is checked
 * after resolution, at connect time, and the connection goes to exactly the address that was checked (the
 * hostname is resolved once per connection: DNS rebinding between check and connect cannot happen), with
 * the URL's own Host header and TLS server name.
 */
export interface AddressPolicy {
  /** Sandbox: loopback (127.0.0.0/8, ::1) is allowed, for receivers on this machine. */
  allowLoopback: boolean;
}

/** A refused destination; `reason` is safe to store and show (it names the address and its range). */
export class SsrfRefusedError extends Error {
  override name = 'SsrfRefusedError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

type Verdict = { ok: true } | { ok: false; range: string };

/** IPv4 ranges (ipaddr.js names) a public receiver can have. */
const PUBLIC_V4 = new Set(['unicast']);
/** IPv6 ranges whose embedded IPv4 address decides (NAT64 well-known prefix, 6to4). */
const EMBEDDING_V6 = new Set(['rfc6052', '6to4']);

function checkV4(addr: ipaddr.IPv4, policy: AddressPolicy): Verdict {
  const range = addr.range();
  if (PUBLIC_V4.has(range)) return { ok: true };
  if (range === 'loopback' && policy.allowLoopback) return { ok: true };
  return { ok: false, range };
}

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64 /96, 6to4), if any. */
function embeddedV4(addr: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const p = addr.parts;
  if (range === 'ipv4Mapped') return addr.toIPv4Address();
  if (range === '6to4') return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
  // NAT64 64:ff9b::/96 and the deprecated IPv4-compatible ::a.b.c.d carry the IPv4 address in the low 32 bits.
  if ((range === 'rfc6052' && p[2] === 0) || p.slice(0, 6).every((x) => x === 0)) {
    return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  }
  return null;
}

/**
 * IPv6 text ending in a dotted quad, as hex groups: ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as if it
 * were `::ffff:a.b.c.d` (mapped); written in hex, each form keeps its own meaning.
 */
function dottedToHex(ip: string): string {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return ip;
  const [a, b, c, d] = m.slice(2).map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Whether an IP address (v4 or v6 text) may be called under the policy, and the range that refuses it. */
export function checkAddress(ip: string, policy: AddressPolicy): Verdict {
  if (!ipaddr.isValid(ip)) return { ok: false, range: 'invalid' };
  const addr = ipaddr.parse(dottedToHex(ip));
  if (addr.kind() === 'ipv4') return checkV4(addr as ipaddr.IPv4, policy);
  const v6 = addr as ipaddr.IPv6;
  if (v6.zoneId) return { ok: false, range: 'scoped' };
  const range = v6.range();
  if (range === 'loopback') return policy.allowLoopback ? { ok: true } : { ok: false, range };
  if (range === 'unspecified') return { ok: false, range };
  const inner = embeddedV4(v6, range);
  if (inner) {
    // Mapped and compatible forms are only ever a way to write an IPv4 address: judge that address.
    const verdict = checkV4(inner, { allowLoopback: policy.allowLoopback && range === 'ipv4Mapped' });
    const form = range === 'unicast' ? 'ipv4Compatible' : range;
    if (!verdict.ok) return { ok: false, range: `${form} of ${verdict.range}` };
    return EMBEDDING_V6.has(range) || range === 'ipv4Mapped' ? { ok: true } : { ok: false, range: 'ipv4Compatible' };
  }
  return range === 'unicast' ? { ok: true } : { ok: false, range };
}

/** Names that are internal by construction (no public DNS answers them). */
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.corp', '.localdomain'];

export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** `host` of a URL without IPv6 brackets. */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * Checks an endpoint URL when it is created or changed. Refuses literal addresses outside the policy and
 * obviously internal names (single labels, `.internal`, `.local`, …; `localhost` only in sandbox); a
 * public-looking name is checked again at every delivery, once resolved. Returns the refusal, or null.
 */
export function refusedEndpointUrl(url: string, policy: AddressPolicy): string | null {
  if (!URL.canParse(url)) return 'url must be an absolute URL';
  const host = bare(new URL(url).hostname).toLowerCase();
  if (isIP(host)) {
    const verdict = checkAddress(host, policy);
    return verdict.ok ? null : `url must point to a public address (${host} is ${verdict.range})`;
  }
  if (isLoopbackName(host)) return policy.allowLoopback ? null : 'url must point to a public address (localhost is loopback)';
  const name = host.replace(/\.$/, '');
  if (!name.includes('.') || INTERNAL_SUFFIXES.some((s) => name.endsWith(s))) {
    return `url must point to a public address (${name} is an internal name)`;
  }
  return null;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * A `net` lookup function that resolves once, refuses when any answer is outside the policy (a name must not
 * mix public and internal addresses), and hands the socket the checked address to connect to.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const cb = callback as (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
    resolve(hostname)
      .then((answers) => {
        if (answers.length === 0) throw new SsrfRefusedError(`${hostname} has no address`);
        for (const a of answers) {
          const verdict = checkAddress(a.address, policy);
          if (!verdict.ok) throw new SsrfRefusedError(`refused: ${hostname} resolves to ${a.address} (${verdict.range})`);
        }
        const wanted = options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
        if (wanted.length === 0) throw new SsrfRefusedError(`${hostname} has no IPv${options.family} address`);
        if (options.all) cb(null, wanted);
        else cb(null, wanted[0]!.address, wanted[0]!.family);
      })
      .catch((err: Error) => cb(err, ''));
  };
}

/** Literal addresses are judged before any connection; names at connect time (guardedLookup). */
function refuseLiteral(url: string, policy: AddressPolicy): void {
  const host = bare(new URL(url).hostname);
  if (isIP(host)) {
    const verdict = checkAddress(host, policy);
    if (!verdict.ok) throw new SsrfRefusedError(`refused: ${host} is ${verdict.range}`);
  }
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'dispatcher'>;
export type GuardedRequest = (url: string, options: RequestOptions) => Promise<Dispatcher.ResponseData>;

/**
 * undici's `request` for outbound calls to URLs users gave: literal addresses are checked before connecting,
 * names at connect time (guardedLookup), redirects are never followed (a 3xx is an answer); keep-alive
 * connections. Refusals reject with SsrfRefusedError. (`request`, not `fetch`: no WHATWG
 * Request/Response/streams per call, about half the CPU of a webhook POST, bench:webhooks.)
 */
export function createGuardedRequest(policy: AddressPolicy, resolve: Resolver = systemResolver): GuardedRequest {
  const agent = new Agent({ connect: { lookup: guardedLookup(policy, resolve) } });
  // The literal check depends on the URL alone: the last one that passed is not parsed again (a round POSTs
  // hundreds of events to one URL; parsing it and its address each time was ~3% of a delivery's CPU).
  let passed: string | null = null;
  return async (url, options) => {
    if (url !== passed) {
      refuseLiteral(url, policy);
      passed = url;
    }
    try {
      return await undiciRequest(url, { ...options, dispatcher: agent });
    } catch (err) {
      throw findRefusal(err) ?? err;
    }
  };
}

function findRefusal(err: unknown): SsrfRefusedError | null {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur; i++) {
    if (cur instanceof SsrfRefusedError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}
