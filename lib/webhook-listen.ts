/**
 * The pure parts of `npm run webhooks:listen` (scripts/webhooks-listen.ts): argument parsing,
 * verification of one request with the `standardwebhooks` library, and the lines printed for it.
 */
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

export const LISTEN_USAGE = 'usage: npm run webhooks:listen -- --secret whsec_… [--port 4000] [--path /] [--host 127.0.0.1]';

export interface ListenOptions {
  secret: string;
  port: number;
  path: string;
  host: string;
}

export type ParsedListenArgs = { ok: true; options: ListenOptions } | { ok: false; help: boolean; message: string };

const NO_SECRET = [
  'webhooks:listen needs --secret whsec_…: the secret of the endpoint that points here.',
  'Register the URL first (POST /v2/webhooks/endpoints answers with its "secret";',
  'GET /v2/webhooks/endpoints/{id}/secret shows it again), then start this receiver with it.',
  'It will not run without one: a receiver that accepts unsigned requests accepts anyone\'s.',
].join('\n');

/** Parses the script's arguments (after `--`); never throws. */
export function parseListenArgs(argv: readonly string[]): ParsedListenArgs {
  let values: { secret?: string; port?: string; path?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        secret: { type: 'string' },
        port: { type: 'string' },
        path: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { ok: false, help: false, message: (err as Error).message };
  }
  if (values.help) return { ok: false, help: true, message: LISTEN_USAGE };
  const secret = values.secret?.trim();
  if (!secret) return { ok: false, help: false, message: NO_SECRET };
  const secretProblem = checkSecret(secret);
  if (secretProblem) return { ok: false, help: false, message: secretProblem };

  const portText = values.port ?? '4000';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) return { ok: false, help: false, message: `--port must be a number from 0 to 65535, not "${portText}"` };

  const path = values.path ?? '/';
  if (!path.startsWith('/') || /[\s?#]/.test(path)) {
    return { ok: false, help: false, message: `--path must start with "/" and hold no spaces, "?" or "#", not "${path}"` };
  }
  const host = values.host?.trim() || '127.0.0.1';
  return { ok: true, options: { secret, port, path, host } };
}

/** Why a secret cannot be used, or null. */
function checkSecret(secret: string): string | null {
  if (!secret.startsWith('whsec_')) return '--secret must be an endpoint secret ("whsec_" followed by base64), as the API returned it';
  try {
    new Webhook(secret);
    return null;
  } catch {
    return '--secret is not valid: after "whsec_" it must be base64, as the API returned it';
  }
}

/** The delivered body (see domain/webhooks/signing.ts EventEnvelope). */
interface Envelope {
  event_type?: unknown;
  data?: unknown;
  team_id?: unknown;
  user_id?: unknown;
  client_user_id?: unknown;
}

export type Verdict =
  | { ok: true; id: string; headerNames: 'webhook' | 'svix'; envelope: Envelope | null; body: string }
  | { ok: false; id: string | null; reason: string };

type Headers = Record<string, string | string[] | undefined>;

const one = (h: Headers, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Verifies one request with the Standard Webhooks library: the `webhook-*` headers, or the `svix-*`
 * names when no `webhook-signature` is present. `headers` must have lower-case names (as node:http
 * gives them). The timestamp must be within the library's 5 minutes of now.
 */
export function verifyRequest(webhook: Webhook, headers: Headers, body: string): Verdict {
  const names = one(headers, 'webhook-signature') !== undefined || one(headers, 'svix-signature') === undefined ? 'webhook' : 'svix';
  const id = one(headers, `${names}-id`);
  const signed = {
    'webhook-id': id ?? '',
    'webhook-timestamp': one(headers, `${names}-timestamp`) ?? '',
    'webhook-signature': one(headers, `${names}-signature`) ?? '',
  };
  try {
    webhook.verify(body, signed, { jsonParse: false });
  } catch (err) {
    return { ok: false, id: id ?? null, reason: (err as Error).message || 'verification failed' };
  }
  let envelope: Envelope | null = null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) envelope = parsed as Envelope;
  } catch {
    // signed but not JSON: shown raw
  }
  return { ok: true, id: id!, headerNames: names, envelope, body };
}

// ---- output ------------------------------------------------------------------------------------

const ansi = (code: string) => (s: string) => `\u001b[${code}m${s}\u001b[0m`;
const styles = { green: ansi('32'), red: ansi('31'), bold: ansi('1'), dim: ansi('2'), cyan: ansi('36') };
type Style = keyof typeof styles;

function painter(color: boolean) {
  return (style: Style, s: string) => (color ? styles[style](s) : s);
}

const indent = (text: string, by = '    ') =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n');

export interface FormatOptions {
  color: boolean;
  /** How many times this webhook-id arrived before (a retry, resend or replay of the same event). */
  seenBefore?: number;
}

/** What the receiver prints for one request: a header line, and for a verified event its `data` indented. */
export function formatVerdict(v: Verdict, at: Date, opts: FormatOptions): string {
  const paint = painter(opts.color);
  const time = paint('dim', at.toISOString());
  if (!v.ok) {
    const id = v.id ? `  ${paint('dim', `webhook-id ${v.id}`)}` : '';
    return `${time}  ${paint('red', '✗ 401 refused')}: ${v.reason}${id}`;
  }
  const e = v.envelope;
  const str = (x: unknown) => (typeof x === 'string' && x ? x : null);
  const eventType = str(e?.event_type) ?? '(no event_type)';
  const parts = [`webhook-id ${v.id}`];
  if (str(e?.team_id)) parts.push(`team ${str(e?.team_id)}`);
  if (str(e?.user_id)) parts.push(`user ${str(e?.user_id)}`);
  if (str(e?.client_user_id)) parts.push(`client_user_id ${str(e?.client_user_id)}`);
  if (v.headerNames === 'svix') parts.push('(svix-* headers)');
  const again = opts.seenBefore ? `  ${paint('cyan', `seen ${opts.seenBefore}× before: same event, deduplicate on webhook-id`)}` : '';
  const head = `${time}  ${paint('green', '✓ verified')}  ${paint('bold', eventType)}  ${paint('dim', parts.join('  '))}${again}`;
  const body = e ? (e.data === undefined ? '(no data)' : JSON.stringify(e.data, null, 2)) : `body (not JSON): ${v.body}`;
  return `${head}\n${indent(body)}`;
}

/** A request that is not a webhook for this receiver (wrong path or method): one dim line. */
export function formatIgnored(method: string, path: string, status: number, at: Date, opts: { color: boolean; listensOn: string }): string {
  const paint = painter(opts.color);
  return paint('dim', `${at.toISOString()}  ${method} ${path} → ${status} (this receiver takes POST ${opts.listensOn})`);
}

/** The lines printed once listening: where, and how to register that URL. */
export function startBanner(url: string, opts: { color: boolean; apiUrl: string }): string {
  const paint = painter(opts.color);
  return [
    `${paint('bold', 'webhooks:listen')} verifying Standard Webhooks signatures on ${paint('cyan', url)}`,
    `The endpoint to register for it (if not done yet; then restart with the secret the API returns):`,
    `  curl -X POST ${opts.apiUrl}/v2/webhooks/endpoints -H "x-service-api-key: $KEY" \\`,
    `       -H 'content-type: application/json' -d '{"url": "${url}"}'`,
    `Valid requests get 204, others 401. Ctrl-C stops.`,
  ].join('\n');
}
