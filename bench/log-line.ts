/**
 * npx tsx bench/log-line.ts — the CPU cost of the API's per-request `info` line (api/middleware/request-log.ts),
 * written through the service's logger (lib/logger.ts: its mixin and redaction list) to a file, as bench:api's
 * service does, in one process: with the redaction pass (the logger itself) and without it (withoutRedaction,
 * what the request line uses), to pino's default destination (`pino.destination(fd)`: SonicBoom, asynchronous,
 * each write(2) from libuv's thread pool with whatever lines queued meanwhile: what the service uses) and, to
 * compare, to one writing each line synchronously, one buffering 4 kB and writing synchronously, and one
 * buffering 4 kB and writing asynchronously. Interleaved rounds; prints CPU µs per line (user + system, the
 * thread pool's included), each round and the median. BENCH_LINES (50,000 per round), BENCH_ROUNDS (8).
 */
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { withLogContext } from '../lib/log-context.js';
import { createLogger, withoutRedaction, type Logger } from '../lib/logger.js';
import { median, positiveInt } from './support.js';

const lines = positiveInt('BENCH_LINES', 50_000);
const rounds = positiveInt('BENCH_ROUNDS', 8);
const dir = mkdtempSync(join(tmpdir(), 'log-line-'));
const destinations = {
  default: (fd: number) => pino.destination(fd),
  'sync, each line': (fd: number) => pino.destination({ fd, sync: true }),
  'sync, 4 kB': (fd: number) => pino.destination({ fd, sync: true, minLength: 4096 }),
  'async, 4 kB': (fd: number) => pino.destination({ fd, sync: false, minLength: 4096 }),
};
const file = (name: string) => openSync(join(dir, `${name.replace(/\W+/g, '-')}.log`), 'a');
const variants: [string, Logger][] = [['redacted, default', createLogger({ level: 'info', name: 'api', destination: pino.destination(file('redacted')) })]];
for (const [label, destination] of Object.entries(destinations)) {
  variants.push([`unredacted, ${label}`, withoutRedaction(createLogger({ level: 'info', name: 'api', destination: destination(file(label)) }))]);
}


async function main() {
  const perLine = new Map<string, number[]>(variants.map(([label]) => [label, []]));
  const teamId = '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c';
  for (let round = 0; round < rounds; round++) {
    for (const [label, logger] of round % 2 ? [...variants].reverse() : variants) {
      const before = process.cpuUsage();
      for (let i = 0; i < lines; i++) {
        withLogContext({ request_id: `3c1f6a2e-8b4d-4e7a-9f0c-${String(i).padStart(12, '0')}` }, () =>
          logger.info({ method: 'GET', path: `/v2/user/${teamId}`, status: 200, ms: (i % 97) / 10, team_id: teamId }, 'request'),
        );
        // Let the thread pool's writes complete as a server's event loop would between requests.
        if (i % 64 === 63) await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setTimeout(r, 5));
      const used = process.cpuUsage(before);
      perLine.get(label)!.push((used.user + used.system) / lines);
    }
  }
  process.stdout.write(`log-line: ${lines} lines × ${rounds} rounds per variant, CPU µs per line\n`);
  for (const [label, xs] of perLine) {
    process.stdout.write(`  ${label.padEnd(26)} ${xs.map((x) => x.toFixed(1).padStart(5)).join(' ')}   median ${median(xs).toFixed(2)}\n`);
  }
  for (const [, logger] of variants) logger.flush();
  rmSync(dir, { recursive: true, force: true });
}

void main();
