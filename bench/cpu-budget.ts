/**
 * Where a process's CPU went, from a V8 CPU profile (.cpuprofile): each sample's time is charged to the
 * nearest frame on its stack that belongs to a known part of the service (HTTP and validation, the
 * Temporal client, workflow activations, the payload codec, building the order payload, SQL, logging…),
 * so time in a built-in (JSON.stringify, crypto, a regex) counts for the part that called it.
 * `npm run bench:orders` uses it with BENCH_CPU_PROFILE to print a per-order budget.
 */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Parts, first match wins (a frame's script URL or path). */
const PARTS: [string, RegExp][] = [
  ['logging', /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact)\/|\/lib\/logger\.ts|\/lib\/log-context\.ts/],
  ['payload codec (encryption)', /\/lib\/payload-codec\.ts|\/lib\/secret-box\.ts/],
  ['order payload (the order as GET returns it)', /\/db\/queries\/order-view\.ts|\/api\/routes\/orders\/responses\.ts|\/db\/queries\/lab-test-view\.ts/],
  ['SQL (driver, drizzle, queries)', /node_modules\/(postgres|drizzle-orm)\/|\/db\//],
  ['metrics and tracing', /node_modules\/(prom-client|@opentelemetry)\/|\/lib\/(metrics|activity-metrics|tracing|queue-metrics)\.ts/],
  ['workflow code (sandboxed)', /\/workflows\/|webpack:|workflow-bundle/],
  ['workflow activations (SDK worker)', /node_modules\/@temporalio\/(worker|workflow|core-bridge)\//],
  ['activities (own code)', /\/activities\/|\/lib\/activity-errors\.ts/],
  ['Temporal client and protobuf', /node_modules\/(@temporalio\/(client|common|proto)|@grpc|protobufjs|long|@protobufjs)\//],
  ['HTTP and validation', /node_modules\/(hono|@hono|zod|undici)\/|\/api\/|\/domain\//],
];

export type Budget = Map<string, number>;

/** Microseconds per part (idle excluded; garbage collection and unattributed native time as their own parts). */
export function cpuBudget(profile: CpuProfile): Budget {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = partOf.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const fn = node.callFrame.functionName;
    let part: string | undefined;
    if (fn === '(idle)') part = 'idle';
    else if (fn === '(garbage collector)') part = 'garbage collection';
    else if (fn === '(program)') part = 'native, unattributed';
    else {
      const url = node.callFrame.url;
      part = url ? PARTS.find(([, re]) => re.test(url))?.[0] : undefined;
      if (!part) {
        const up = parent.get(id);
        part = up === undefined ? (url ? 'other (Node internals, other packages)' : 'native, unattributed') : resolve(up);
        if (part === 'idle' || part === 'native, unattributed') part = url ? 'other (Node internals, other packages)' : part;
      }
    }
    partOf.set(id, part);
    return part;
  };
  const budget: Budget = new Map();
  profile.samples.forEach((id, i) => {
    const part = resolve(id);
    budget.set(part, (budget.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return budget;
}

/** Several processes' budgets as one (API and worker profiled apart). */
export function sumBudgets(budgets: Budget[]): Budget {
  const sum: Budget = new Map();
  for (const b of budgets) for (const [part, us] of b) sum.set(part, (sum.get(part) ?? 0) + us);
  return sum;
}

/** Lines for a bench report: CPU ms per order by part, busiest first, and the total against wall time. */
export function formatBudget(budget: Budget, orders: number, wallSeconds: number, processes = 'service process'): string[] {
  const busy = [...budget].filter(([part]) => part !== 'idle');
  const total = busy.reduce((s, [, us]) => s + us, 0);
  const lines = [
    `  CPU budget  ${processes} (main JS threads), orders phase: ${(total / 1000 / orders).toFixed(1)} ms CPU per order, ` +
      `${((total / 1e6 / wallSeconds) * 100).toFixed(0)}% of one core over ${wallSeconds.toFixed(1)} s`,
  ];
  for (const [part, us] of busy.sort((a, b) => b[1] - a[1])) {
    lines.push(`    ${part.padEnd(46)} ${(us / 1000 / orders).toFixed(2).padStart(7)} ms/order  ${((us / total) * 100).toFixed(1).padStart(5)}%`);
  }
  return lines;
}

/** `npx tsx bench/cpu-budget.ts <file.cpuprofile> <orders> <wall seconds>`: the same report for a saved profile. */
if (process.argv[1]?.endsWith('cpu-budget.ts') && process.argv[2]) {
  const { readFileSync } = await import('node:fs');
  const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as CpuProfile;
  process.stdout.write(`${formatBudget(cpuBudget(profile), Number(process.argv[3] ?? 1), Number(process.argv[4] ?? 1)).join('\n')}\n`);
}
