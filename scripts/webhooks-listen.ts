/**
 * `npm run webhooks:listen -- --secret whsec_… [--port 4000] [--path /] [--host 127.0.0.1]`
 *
 * A local webhook receiver for developers integrating with the service: it verifies every request
 * with the `standardwebhooks` library and the endpoint's secret, answers 204 when the signature is
 * valid and 401 (with the reason) when not, and prints each event. It refuses to start without a
 * secret. Exit codes: 0 after Ctrl-C, 1 when it cannot listen, 2 for bad arguments.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { LISTEN_USAGE, formatIgnored, formatVerdict, parseListenArgs, startBanner, verifyRequest } from '../lib/webhook-listen.js';

const MAX_BODY_BYTES = 1024 * 1024;
/** How many webhook-ids to remember for the "seen before" note. */
const REMEMBER_IDS = 10_000;

const parsed = parseListenArgs(process.argv.slice(2));
if (!parsed.ok) {
  if (parsed.help) {
    process.stdout.write(`${LISTEN_USAGE}\n`);
    process.exit(0);
  }
  process.stderr.write(`${parsed.message}\n${LISTEN_USAGE}\n`);
  process.exit(2);
}
const options = parsed.options;
const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const webhook = new Webhook(options.secret);
const seen = new Map<string, number>();
const counts = { verified: 0, refused: 0 };

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path !== options.path || req.method !== 'POST') {
    const status = path !== options.path ? 404 : 405;
    res
      .writeHead(status, { 'content-type': 'text/plain', ...(status === 405 ? { allow: 'POST' } : {}) })
      .end(`${status === 404 ? 'not found' : 'method not allowed'}: this receiver takes POST ${options.path}\n`);
    process.stdout.write(`${formatIgnored(req.method ?? '?', path, status, new Date(), { color, listensOn: options.path })}\n`);
    return;
  }
  readBody(req).then(
    (body) => {
      const at = new Date();
      if (body === null) {
        res.writeHead(413, { 'content-type': 'text/plain' }).end('body too large\n');
        return;
      }
      const verdict = verifyRequest(webhook, req.headers, body);
      if (verdict.ok) {
        counts.verified++;
        res.writeHead(204).end();
      } else {
        counts.refused++;
        res.writeHead(401, { 'content-type': 'text/plain' }).end(`invalid signature: ${verdict.reason}\n`);
      }
      const seenBefore = verdict.ok ? (seen.get(verdict.id) ?? 0) : 0;
      if (verdict.ok) {
        if (seen.size >= REMEMBER_IDS && !seen.has(verdict.id)) seen.delete(seen.keys().next().value!);
        seen.set(verdict.id, seenBefore + 1);
      }
      process.stdout.write(`${formatVerdict(verdict, at, { color, seenBefore })}\n`);
    },
    (err: unknown) => {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('could not read the request\n');
      process.stderr.write(`request error: ${String(err)}\n`);
    },
  );
});

server.on('error', (err: NodeJS.ErrnoException) => {
  const why = err.code === 'EADDRINUSE' ? `port ${options.port} is in use (choose another with --port)` : err.message;
  process.stderr.write(`webhooks:listen cannot listen on ${options.host}:${options.port}: ${why}\n`);
  process.exit(1);
});

server.listen(options.port, options.host, () => {
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  const apiUrl = process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 8000}`; // where the API is, for the hint
  process.stdout.write(`${startBanner(`http://${shownHost}:${port}${options.path}`, { color, apiUrl })}\n`);
});

function stop(): void {
  server.closeAllConnections();
  server.close(() => {
    process.stdout.write(`stopped: ${counts.verified} verified, ${counts.refused} refused\n`);
    process.exit(0);
  });
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
