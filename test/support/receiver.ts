import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  json: { event_type: string; data: Record<string, unknown>; team_id: string; user_id: string | null; client_user_id: string | null };
  /** What the receiver answered. */
  status: number;
}

/** Decides the answer to each request: a status code, optionally with headers. */
export type Behaviour = (req: { n: number; body: string }) => number | { status: number; headers?: Record<string, string> };

/**
 * A real HTTP receiver on loopback for webhook tests. It can be stopped (port closed: connections
 * refused, as for a receiver that is down) and started again on the same port.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  private server: Server | null = null;
  private count = 0;
  port = 0;

  constructor(public behaviour: Behaviour = () => 204) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Requests answered 2xx: what the service counts as delivered. */
  get accepted(): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300);
  }

  async start(port = this.port): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const answer = this.behaviour({ n: ++this.count, body });
        const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        this.received.push({ at: Date.now(), headers: req.headers, body, json: JSON.parse(body) as Received['json'], status });
        res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(status < 300 ? 'ok' : `no (${status})`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Reserves a loopback port that nothing listens on yet (a receiver that is "down"). */
export async function unusedPort(): Promise<number> {
  const r = await new TestReceiver().start(0);
  const port = r.port;
  await r.stop();
  return port;
}
