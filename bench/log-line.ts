/**
 * npx tsx bench/log-line.ts — the CPU cost of the API's per-request `info` line (api/middleware/request-log.ts),
 * written through the service's logger (lib/logger.ts: its mixin and redaction list) to a file, as bench:api's
 * service does, in one process: with the redaction pass (the logger itself) and without (withoutRedaction), each to
 * a destination that writes every line at once (pino's default, one write(2) per line), one that buffers 4 kB
 * and writes synchronously, and one that buffers 4 kB and writes from libuv's thread pool (`sync: false`).
 * Interleaved rounds; prints CPU µs per line (user + system, the thread pool's included), each round and the median.
 * BENCH_LINES (50,000 per round), BENCH_ROUNDS (8).
 */
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { withLogContext } from '../lib/log-context.js';
import { createLogger, withoutRedaction, type Logger } from '../lib/logger.js';
import { positiveInt } from './support.js';

const lines = positiveInt('BENCH_LINES', 50_000);
const rounds = positiveInt('BENCH_ROUNDS', 8);
const dir = mkdtempSync(join(tmpdir(), 'log-line-'));
const destinations = {
  'each line': { sync: true },
  'sync, 4 kB': { sync: true, minLength: 4096 },
  'async, 4 kB': { sync: false, minLength: 4096 },
} as const;
const variants: [string, Logger][] = [];
for (const [label, opts] of Object.entries(destinations)) {
  const logger = (file: string) => createLogger({ level: 'info', name: 'api', destination: pino.destination({ fd: openSync(join(dir, file), 'a'), ...opts }) });
  variants.push([`redacted, ${label}`, logger(`r-${label}.log`)], [`unredacted, ${label}`, withoutRedaction(logger(`u-${label}.log`))]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

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
