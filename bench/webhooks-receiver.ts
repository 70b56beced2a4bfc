/**
 * The receiver of bench:webhooks: a plain node:http server on loopback that verifies every request
 * (standardwebhooks, the endpoint's secret), answers 204, and keeps when each webhook-id first
 * arrived and how often.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Receipt {
  /** Date.now() of the first arrival. */
  at: number;
  count: number;
}

export class BenchReceiver {
  readonly receipts = new Map<string, Receipt>();
  /** Requests whose signature did not verify (answered 401; the bench then fails). */
  invalid = 0;
  private readonly webhook: Webhook;
  private server: Server | null = null;
  url = '';

  constructor(secret: string) {
    this.webhook = new Webhook(secret);
  }

  /** Listens on 127.0.0.1:`port` (0 = any free port); may be called again after stop() (receipts are kept). */
  async start(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        const body = Buffer.concat(chunks).toString('utf8');
        const id = String(req.headers['webhook-id']);
        try {
          this.webhook.verify(body, req.headers as Record<string, string>, { jsonParse: false });
        } catch {
          this.invalid++;
          res.writeHead(401).end();
          return;
        }
        const seen = this.receipts.get(id);
        if (seen) seen.count++;
        else this.receipts.set(id, { at, count: 1 });
        res.writeHead(204).end();
      });
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    return this.url;
  }

  /** How many of `ids` have arrived at least once. */
  countOf(ids: readonly string[]): number {
    let n = 0;
    for (const id of ids) if (this.receipts.has(id)) n++;
    return n;
  }

  /** Arrival summary of a set of ids: missing ones, ids that came more than once, time of the last first arrival. */
  summary(ids: readonly string[]) {
    const missing: string[] = [];
    let duplicates = 0;
    let lastAt = 0;
    for (const id of ids) {
      const r = this.receipts.get(id);
      if (!r) missing.push(id);
      else {
        if (r.count > 1) duplicates++;
        lastAt = Math.max(lastAt, r.at);
      }
    }
    return { missing, duplicates, lastAt };
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
