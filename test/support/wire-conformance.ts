/**
 * Key-by-key comparison of a response body with a shape of the hosted service
 * (test/fixtures/wire/hosted-shapes.md): which expected key paths our body lacks, and where a JSON type
 * differs. Optional keys may be null; the keys under an object that is null (or an empty array) are not
 * counted, as they would not be in a recorded body either. In arrays, a key is present only when every
 * element has it.
 */
import { readFileSync } from 'node:fs';

export interface Field {
  name: string;
  optional: boolean;
  type: string;
}

export type Shapes = Map<string, Field[]>;

/** Splits on commas outside `<…>` (so `Record<str, X>` stays whole). */
function splitFields(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

export function parseShapes(markdown: string): Shapes {
  const shapes: Shapes = new Map();
  for (const line of markdown.split('\n')) {
    const m = /^- `(\w+)`: (.+)$/.exec(line.trim());
    if (!m) continue;
    const fields = splitFields(m[2]!).map((f) => {
      const [rawName, type] = f.split(/\s+/);
      if (!rawName || !type) throw new Error(`bad field "${f}" in ${m[1]}`);
      return { name: rawName.replace(/\?$/, ''), optional: rawName.endsWith('?'), type };
    });
    shapes.set(m[1]!, fields);
  }
  return shapes;
}

export function loadHostedShapes(): Shapes {
  return parseShapes(readFileSync(new URL('../fixtures/wire/hosted-shapes.md', import.meta.url), 'utf8'));
}

export interface Comparison {
  /** Expected key paths looked for (`order.events[].status`). */
  expected: string[];
  missing: string[];
  /** `path: expected <type>, got <type>`. */
  typeDiffs: string[];
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The JSON type a CONTRACT type is sent as; a shape name is an object, an unknown name an enum string. */
function wantedType(type: string, shapes: Shapes): string {
  if (type.endsWith('[]')) return 'array';
  if (type.startsWith('Record<')) return 'object';
  if (shapes.has(type)) return 'object';
  if (type === 'num') return 'number';
  if (type === 'bool') return 'boolean';
  if (type === 'unknown') return 'any';
  return 'string'; // str, dt, string literals and enums
}

export function compareShape(body: unknown, shape: string, shapes: Shapes, prefix = ''): Comparison {
  const out: Comparison = { expected: [], missing: [], typeDiffs: [] };
  if (shape.endsWith('[]')) {
    const items = Array.isArray(body) ? body : [];
    return mergeElements(items.map((item) => compareShape(item, shape.slice(0, -2), shapes, `${prefix}[]`)));
  }
  const fields = shapes.get(shape);
  if (!fields) throw new Error(`no shape ${shape}`);
  const obj = (body ?? {}) as Record<string, unknown>;
  for (const f of fields) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    out.expected.push(path);
    if (!(f.name in obj)) {
      out.missing.push(path);
      continue;
    }
    const value = obj[f.name];
    const want = wantedType(f.type, shapes);
    const got = jsonType(value);
    if (got === 'null') {
      if (!f.optional) out.typeDiffs.push(`${path}: expected ${want}, got null`);
      continue;
    }
    if (want !== 'any' && want !== got) {
      out.typeDiffs.push(`${path}: expected ${want}, got ${got}`);
      continue;
    }
    const element = f.type.endsWith('[]') ? f.type.slice(0, -2) : null;
    if (element && shapes.has(element)) merge(out, compareShape(value, f.type, shapes, path));
    else if (element) {
      const wantEl = wantedType(element, shapes);
      for (const v of value as unknown[]) if (wantEl !== 'any' && jsonType(v) !== wantEl) out.typeDiffs.push(`${path}[]: expected ${wantEl}, got ${jsonType(v)}`);
    } else if (shapes.has(f.type)) merge(out, compareShape(value, f.type, shapes, path));
  }
  return out;
}

function merge(into: Comparison, from: Comparison) {
  into.expected.push(...from.expected);
  into.missing.push(...from.missing);
  into.typeDiffs.push(...from.typeDiffs);
}

/** Array elements: each path counted once; missing when any element lacks it. */
function mergeElements(parts: Comparison[]): Comparison {
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    expected: uniq(parts.flatMap((p) => p.expected)),
    missing: uniq(parts.flatMap((p) => p.missing)),
    typeDiffs: uniq(parts.flatMap((p) => p.typeDiffs)),
  };
}
