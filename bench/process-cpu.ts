/**
 * CPU time of this process's descendants, by role, read from /proc (Linux): a bench that runs the service,
 * Temporal and Postgres as child processes can say which of them spent the machine's CPU on a phase, not
 * only its own process. Only descendants are counted (and those of processes named, such as a Postgres server
 * the bench did not start), so another stack on the same machine (another bench, a test run) is never charged; a process that exits during the phase loses the part of its time it spent
 * after the first reading (the pools' Postgres backends live for the whole run, so little is lost).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** user + system CPU, seconds */
  cpu: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after its last ')'
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const rest = text.slice(close + 2).split(' ');
    // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15
    return { pid, ppid: Number(rest[1]), comm, cpu: (Number(rest[11]) + Number(rest[12])) / TICKS };
  } catch {
    return null; // gone between listing and reading
  }
}

/** Every process under each of `roots` (the roots included, each once), with its CPU time so far. */
function descendants(roots: number[]): ProcStat[] {
  const all = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = readStat(pid);
    if (s) all.set(pid, s);
  }
  const children = new Map<number, number[]>();
  for (const s of all.values()) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const out = new Map<number, ProcStat>();
  const stack = [...roots];
  while (stack.length) {
    const pid = stack.pop()!;
    const s = all.get(pid);
    if (!s || out.has(pid)) continue;
    out.set(pid, s);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...out.values()];
}

/** The parent of a process (0 when it is gone): e.g. a Postgres backend's postmaster. */
export const parentOf = (pid: number): number => readStat(pid)?.ppid ?? 0;

/**
 * Names a process's role (by its pid or its command), or null to charge it to its parent's role. This
 * process defaults to `bench` (the load generator and, in some benches, a receiver).
 */
export type Classify = (p: { pid: number; comm: string }) => string | null;

/** A reading of CPU seconds per role; `since(earlier)` gives what each role spent in between. */
export class ProcessCpu {
  private constructor(readonly byPid: Map<number, { role: string; cpu: number }>) {}

  /** `also`: more processes counted with their descendants (a Postgres server this bench did not start). */
  static read(classify: Classify, also: number[] = []): ProcessCpu {
    const root = process.pid;
    const procs = descendants([root, ...also]);
    const byPidStat = new Map(procs.map((p) => [p.pid, p]));
    const roleOf = new Map<number, string>();
    const resolve = (p: ProcStat): string => {
      const known = roleOf.get(p.pid);
      if (known) return known;
      const parent = byPidStat.get(p.ppid);
      const role = classify(p) ?? (p.pid === root || !parent ? 'bench' : resolve(parent));
      roleOf.set(p.pid, role);
      return role;
    };
    return new ProcessCpu(new Map(procs.map((p) => [p.pid, { role: resolve(p), cpu: p.cpu }])));
  }

  /** CPU seconds per role between `earlier` and this reading (processes born in between count from zero). */
  since(earlier: ProcessCpu): Map<string, number> {
    const out = new Map<string, number>();
    for (const [pid, { role, cpu }] of this.byPid) {
      const before = earlier.byPid.get(pid)?.cpu ?? 0;
      out.set(role, (out.get(role) ?? 0) + Math.max(0, cpu - before));
    }
    return out;
  }
}

/** "api 12.1 · worker 30.4 · temporal 9.8 · postgres 11.0 · bench 2.1 ms CPU per order (total 65.4)"; `items` may be a fraction (per 1,000 events: n / 1000). */
export function formatCpuPerItem(spent: Map<string, number>, items: number, unit: string): string {
  const order = ['api', 'worker', 'service', 'temporal', 'postgres', 'bench'];
  const roles = [...spent.keys()].sort((a, b) => (order.indexOf(a) + 99 * +!order.includes(a)) - (order.indexOf(b) + 99 * +!order.includes(b)));
  const ms = (s: number) => ((s * 1000) / items).toFixed(1);
  const total = [...spent.values()].reduce((a, b) => a + b, 0);
  return `${roles.map((r) => `${r} ${ms(spent.get(r)!)}`).join(' · ')} ms CPU per ${unit} (total ${ms(total)})`;
}

/**
 * CPU seconds per thread group of one process, from /proc/<pid>/task: `main` (the JS main thread), and the
 * others by their thread name (Node's worker threads that run workflows, V8's helper threads for GC and
 * compilation, libuv's pool, the Temporal core's Rust runtime…), so a bench can say which part of a process
 * spent it. Threads that ended before the reading are lost.
 */
export function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const name of tids) {
    const tid = Number(name);
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const rest = text.slice(close + 2).split(' ');
    const cpu = (Number(rest[11]) + Number(rest[12])) / TICKS;
    // Node names its worker threads (workflow threads) and V8's helpers alike: those stay apart, by thread id
    const group = tid === pid ? 'main' : comm === 'node' ? `node#${tid}` : comm.replace(/[\d-]+$/, '').trim() || comm;
    out.set(group, (out.get(group) ?? 0) + cpu);
  }
  return out;
}

/** What each thread group spent between two `threadCpu` readings. */
export function threadCpuSince(now: Map<string, number>, earlier: Map<string, number>): Map<string, number> {
  return new Map([...now].map(([g, s]) => [g, Math.max(0, s - (earlier.get(g) ?? 0))]));
}

/** "main 20.1 · node 12.0 · tokio-runtime-worker 8.2 ms per order" (largest first). */
export function formatThreadCpu(spent: Map<string, number>, items: number, unit: string): string {
  const ms = (s: number) => ((s * 1000) / items).toFixed(1);
  const sorted = [...spent].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
  const rest = sorted.slice(6).reduce((a, [, s]) => a + s, 0);
  return `${[...sorted.slice(0, 6).map(([g, s]) => `${g} ${ms(s)}`), ...(rest > 0 ? [`others ${ms(rest)}`] : [])].join(' · ')} ms CPU per ${unit}`;
}
