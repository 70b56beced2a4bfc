import {
  AGGREGATE_FUNCS,
  CATALOGUE,
  DATE_PARTS,
  DISCRETE_TIMESERIES,
  INTERVAL_TIMESERIES,
  MAX_TIMESERIES_WINDOW_DAYS,
  TIMESERIES_FIELDS,
  UNSUPPORTED_TIMESERIES_FIELDS,
  FUNC_TYPES,
  PERIOD_UNITS,
  TABLES,
  valueType,
  type AggregateFunc,
  type CompiledInput,
  type DatePart,
  type GroupExpr,
  type PeriodUnit,
  type QuerySource,
  type SelectItem,
  type TableName,
  type ColType,
  type ValueExpr,
  type WhereNode,
  type WhereOperand,
  type Window,
} from '../../../db/queries/aggregate.js';
import { ValidationError } from '../../errors.js';
import { clipInput } from '../../validation.js';

/**
 * The request side of the aggregation query language (SDK `QueryBatch`): timeframes, select and
 * group_by expressions, checked into what db/queries/aggregate.ts compiles. Every refusal is a 422
 * naming the place (`loc`) and what is wrong or unsupported.
 */

export const MAX_QUERIES = 16;
export const MAX_SELECT = 64;
export const MAX_GROUP_BY = 8;
/** date_trunc / date_part buckets: at most this many units (`{value: 1000, unit: "day"}`). */
export const MAX_BUCKET_VALUE = 1000;
/** The longest timeframe a query may cover. */
export const MAX_WINDOW_DAYS = 3700;
const MIN_YEAR = 1900;
const MAX_YEAR = 2200;

type Loc = (string | number)[];

function fail(loc: Loc, msg: string, input?: unknown): never {
  throw new ValidationError([{ loc: ['body', ...loc], msg, type: 'value_error', ...(input !== undefined ? { input: clipInput(input) } : {}) }]);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(v: unknown, loc: Loc, what: string): Record<string, unknown> {
  if (!isObject(v)) fail(loc, `${what} must be an object`, v);
  return v;
}

/** The object has exactly these keys (the optional ones may be missing). */
function keys(o: Record<string, unknown>, loc: Loc, required: string[], optional: string[] = []) {
  for (const k of required) if (o[k] === undefined) fail([...loc, k], 'Field required');
  for (const k of Object.keys(o)) if (!required.includes(k) && !optional.includes(k)) fail([...loc, k], `unexpected key "${k}"`, o);
}

function oneOf<T extends string>(v: unknown, values: readonly T[], loc: Loc, what: string): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) fail(loc, `${what} must be one of: ${values.join(', ')}`, v);
  return v as T;
}

// ---- time -------------------------------------------------------------------------------------------

const WHEN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A date (`YYYY-mm-dd`) or an ISO 8601 date-time, read as the user's local wall-clock time (kept in a
 * Date's UTC fields); a zone designator is accepted and not applied (summaries are indexed by local time).
 */
export function parseWhen(v: unknown, loc: Loc): { at: Date; dateOnly: boolean } {
  const msg = `must be a date (YYYY-mm-dd) or an ISO 8601 date-time between ${MIN_YEAR} and ${MAX_YEAR}`;
  if (typeof v !== 'string' || v.length > 40) fail(loc, msg, v);
  const m = WHEN.exec(v);
  if (!m) fail(loc, msg, v);
  const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const ms = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  const at = new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s, Math.floor(ms)));
  if (
    y! < MIN_YEAR || y! > MAX_YEAR || at.getUTCFullYear() !== y || at.getUTCMonth() !== mo! - 1 || at.getUTCDate() !== d || h > 23 || mi > 59 || s > 59
  ) {
    fail(loc, msg, v);
  }
  return { at, dateOnly: m[4] === undefined };
}

/** `at` moved by `n` units (negative: back); months and years keep the day of month where it exists. */
function shift(at: Date, n: number, unit: PeriodUnit): Date {
  const fixed: Partial<Record<PeriodUnit, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };
  const ms = fixed[unit];
  if (ms) return new Date(at.getTime() + n * ms);
  const months = unit === 'month' ? n : n * 12;
  const total = at.getUTCFullYear() * 12 + at.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const r = new Date(at.getTime());
  r.setUTCFullYear(year, month, Math.min(at.getUTCDate(), lastDay));
  return r;
}

function period(v: unknown, loc: Loc, max: number): { value: number; unit: PeriodUnit } {
  const o = object(v, loc, 'a period');
  keys(o, loc, ['unit'], ['value']);
  const unit = oneOf(o.unit, PERIOD_UNITS, [...loc, 'unit'], 'unit');
  const value = o.value ?? 1;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    fail([...loc, 'value'], `must be a whole number from 1 to ${max}`, o.value);
  }
  return { value, unit };
}

/** Timeseries queries cover a shorter window (minute data add up). */
export function checkTimeseriesWindow(queries: CompiledInput[], w: Window) {
  if (queries.some((q) => q.source.kind === 'timeseries') && w.end.getTime() - w.start.getTime() > MAX_TIMESERIES_WINDOW_DAYS * 86_400_000) {
    fail(['timeframe'], `a batch with timeseries queries covers at most ${MAX_TIMESERIES_WINDOW_DAYS} days`);
  }
}

/** The query's window [start, end) in local time. */
export function parseTimeframe(v: unknown): Window {
  const loc = ['timeframe'];
  const o = object(v, loc, 'timeframe');
  if ('placeholder' in o) {
    fail(loc, 'a placeholder timeframe is filled in by a continuous query, and this service has none: send a relative timeframe', o);
  }
  const type = oneOf(o.type, ['relative', 'absolute'] as const, [...loc, 'type'], 'timeframe.type');
  let start: Date;
  let end: Date;
  if (type === 'relative') {
    keys(o, loc, ['type', 'anchor', 'past']);
    const anchor = parseWhen(o.anchor, [...loc, 'anchor']);
    // A date anchor includes its whole day: "the past 7 days" anchored at D are D-6 … D.
    end = anchor.dateOnly ? shift(anchor.at, 1, 'day') : anchor.at;
    const past = period(o.past, [...loc, 'past'], 100_000);
    start = shift(end, -past.value, past.unit);
    if (start.getUTCFullYear() < MIN_YEAR) fail([...loc, 'past'], `reaches back before ${MIN_YEAR}`, o.past);
  } else {
    keys(o, loc, ['type', 'start', 'end']);
    start = parseWhen(o.start, [...loc, 'start']).at;
    const e = parseWhen(o.end, [...loc, 'end']);
    end = e.dateOnly ? shift(e.at, 1, 'day') : e.at;
    if (end <= start) fail([...loc, 'end'], 'must be after start', o.end);
  }
  if (end.getTime() - start.getTime() > MAX_WINDOW_DAYS * 86_400_000) fail(loc, `must cover at most ${MAX_WINDOW_DAYS} days`, o);
  return { start, end };
}

// ---- expressions ------------------------------------------------------------------------------------

const SUPPORTED_TABLES = TABLES.join(', ');

function tableOf(o: Record<string, unknown>): TableName | undefined {
  return TABLES.find((t) => t in o);
}

/** What a select or group_by item is, by its keys (the SDK's union types are told apart the same way). */
function refuseUnsupported(o: Record<string, unknown>, loc: Loc) {
  if ('value_macro' in o) {
    fail(loc, `value macros (${typeof o.value_macro === 'string' ? o.value_macro : 'value_macro'}) are not supported by this service: select summary columns`, o);
  }
}

const TIMESERIES: readonly string[] = [...DISCRETE_TIMESERIES, ...INTERVAL_TIMESERIES];

/** `{"timeseries": <resource>, "field": <field>}`. */
function timeseriesField(o: Record<string, unknown>, loc: Loc): ValueExpr {
  keys(o, loc, ['timeseries', 'field']);
  const resource = o.timeseries;
  if (resource === 'blood_pressure' || resource === 'note') {
    fail([...loc, 'timeseries'], `timeseries ${resource} is not supported: its ${resource === 'note' ? 'text is' : 'diastolic values are'} not stored`, resource);
  }
  if (typeof resource !== 'string' || !TIMESERIES.includes(resource)) fail([...loc, 'timeseries'], `unknown timeseries ${String(resource).slice(0, 64)}`, resource);
  const field = o.field;
  if (typeof field !== 'string') fail([...loc, 'field'], 'must be a timeseries field name', field);
  const interval = (INTERVAL_TIMESERIES as readonly string[]).includes(resource);
  if (field in TIMESERIES_FIELDS || (field === 'duration' && interval)) return { kind: 'field', resource, field };
  if (UNSUPPORTED_TIMESERIES_FIELDS.includes(field) || field === 'duration') {
    fail([...loc, 'field'], `field ${resource}.${field} is not supported: the stored ${resource} samples do not carry it`, field);
  }
  fail([...loc, 'field'], `unknown field ${resource}.${field.slice(0, 64)}`, field);
}

function column(o: Record<string, unknown>, table: TableName, loc: Loc): ValueExpr {
  keys(o, loc, [table]);
  const name = o[table];
  const def = CATALOGUE[table];
  if (typeof name !== 'string') fail([...loc, table], `must be a ${table} column name`, name);
  if (!(name in def.columns)) {
    if (def.unsupported.includes(name)) fail([...loc, table], `column ${table}.${name} is not supported: the stored ${table} summaries do not carry it`, name);
    fail([...loc, table], `unknown column ${table}.${name.slice(0, 64)}`, name);
  }
  return { kind: 'column', table, column: name };
}

function index(o: Record<string, unknown>, loc: Loc): ValueExpr {
  keys(o, loc, ['index']);
  return { kind: 'index', table: oneOf(o.index, [...TABLES, 'timeseries'] as const, [...loc, 'index'], 'index') };
}

function source(o: Record<string, unknown>, loc: Loc): ValueExpr {
  keys(o, loc, ['source']);
  const col = o.source;
  if (col === 'source_app_id' || col === 'source_workout_id' || col === 'source_sport') {
    fail([...loc, 'source'], `source column ${col} is not supported: the stored summaries do not carry it`, col);
  }
  return { kind: 'source', column: oneOf(col, ['source_provider', 'source_type'] as const, [...loc, 'source'], 'source') };
}

/** A column, index or source expression. */
function value(v: unknown, loc: Loc, what: string): ValueExpr {
  const o = object(v, loc, what);
  refuseUnsupported(o, loc);
  const table = tableOf(o);
  if (table) return column(o, table, loc);
  if ('timeseries' in o) return timeseriesField(o, loc);
  if ('index' in o) return index(o, loc);
  if ('source' in o) return source(o, loc);
  fail(loc, `${what} must be a column ({"sleep": "duration_second"}), an index ({"index": "sleep"}) or a source column ({"source": "source_provider"})`, o);
}

function indexArg(v: unknown, loc: Loc): string {
  const o = object(v, loc, 'arg');
  if ('placeholder' in o) fail(loc, 'a placeholder argument belongs to a continuous query, and this service has none: use {"index": "<table>"}', o);
  return sourceKey(index(o, loc))!;
}

type RawSelect = SelectItem | { kind: 'group_keys_all' };

function selectItem(v: unknown, loc: Loc): RawSelect {
  const o = object(v, loc, 'a select item');
  if ('func' in o || 'arg' in o) {
    keys(o, loc, ['arg', 'func']);
    const func = oneOf(o.func, AGGREGATE_FUNCS, [...loc, 'func'], 'func') as AggregateFunc;
    const arg = value(o.arg, [...loc, 'arg'], 'arg');
    if (arg.kind === 'source') fail([...loc, 'arg'], 'an aggregate takes a table column or index, not a source column', o.arg);
    const type = valueType(arg);
    if (!FUNC_TYPES[func].takes.includes(type)) fail([...loc, 'func'], `${func} does not apply to a ${type} column`, o.func);
    return { kind: 'aggregate', func, arg };
  }
  if ('group_key' in o) {
    keys(o, loc, ['group_key']);
    if (o.group_key === '*') return { kind: 'group_keys_all' };
    if (typeof o.group_key !== 'number' || !Number.isInteger(o.group_key) || o.group_key < 0 || o.group_key >= MAX_GROUP_BY) {
      fail([...loc, 'group_key'], `must be "*" or a group_by position (0 to ${MAX_GROUP_BY - 1})`, o.group_key);
    }
    return { kind: 'group_key', key: o.group_key };
  }
  return value(o, loc, 'a select item');
}

function groupItem(v: unknown, loc: Loc, tables: Set<string>): GroupExpr {
  const o = object(v, loc, 'a group_by item');
  if ('date_trunc' in o) {
    keys(o, loc, ['date_trunc', 'arg']);
    const { value: n, unit } = period(o.date_trunc, [...loc, 'date_trunc'], MAX_BUCKET_VALUE);
    tables.add(indexArg(o.arg, [...loc, 'arg']));
    return { kind: 'date_trunc', value: n, unit };
  }
  if ('date_part' in o) {
    keys(o, loc, ['date_part', 'arg']);
    const part = oneOf(o.date_part, DATE_PARTS, [...loc, 'date_part'], 'date_part') as DatePart;
    tables.add(indexArg(o.arg, [...loc, 'arg']));
    return { kind: 'date_part', part };
  }
  if ('index' in o) fail(loc, 'group by the index through date_trunc or date_part', o);
  return value(o, loc, 'a group_by item');
}

function nameOf(item: SelectItem): string {
  if (item.kind === 'group_key') return `group_key.${item.key}`;
  if (item.kind === 'aggregate') return `${item.func}.${nameOf(item.arg)}`;
  if (item.kind === 'index') return 'index';
  if (item.kind === 'field') return item.field;
  return item.column;
}

/** What an expression reads: a summary table, `timeseries:<resource>`, `timeseries` (the index of the query's resource), or nothing. */
function sourceKey(e: ValueExpr): string | undefined {
  if (e.kind === 'source') return undefined;
  if (e.kind === 'field') return `timeseries:${e.resource}`;
  return e.table;
}
const tableOfValue = sourceKey;

function resolveSource(keys: Set<string>, loc: Loc): QuerySource {
  const named = [...keys].filter((k) => k !== 'timeseries');
  if (named.length > 1) fail(loc, `a query reads one table; this one names ${named.map((k) => k.replace('timeseries:', 'timeseries ')).join(' and ')}`);
  const key = named[0];
  if (keys.has('timeseries') && !key?.startsWith('timeseries:')) {
    fail(loc, key ? `the timeseries index does not go with the ${key} table` : 'the timeseries index needs a {"timeseries": …, "field": …} expression naming the resource');
  }
  if (!key) fail(loc, `the query names no table: select a column or an index of ${SUPPORTED_TABLES}, or a timeseries field`);
  return key.startsWith('timeseries:') ? { kind: 'timeseries', resource: key.slice('timeseries:'.length) } : { kind: 'summary', table: key as TableName };
}

/** One query of the batch, checked: one table, group keys in range, select consistent with group_by. */
export function parseQuery(v: unknown, i: number): CompiledInput {
  const loc: Loc = ['queries', i];
  const o = object(v, loc, 'a query');
  keys(o, loc, ['select'], ['group_by', 'where']);
  if (o.where !== undefined && o.where !== null && typeof o.where !== 'string') fail([...loc, 'where'], 'must be a string', o.where);
  if (!Array.isArray(o.select) || o.select.length === 0 || o.select.length > MAX_SELECT) {
    fail([...loc, 'select'], `must be a list of 1 to ${MAX_SELECT} expressions`, o.select);
  }
  const groupByRaw = o.group_by ?? [];
  if (!Array.isArray(groupByRaw) || groupByRaw.length > MAX_GROUP_BY) fail([...loc, 'group_by'], `must be a list of at most ${MAX_GROUP_BY} expressions`, o.group_by);

  const tables = new Set<string>();
  const groupBy = groupByRaw.map((g, j) => groupItem(g, [...loc, 'group_by', j], tables));
  if (groupBy.filter((g) => g.kind === 'date_trunc').length > 1) fail([...loc, 'group_by'], 'a query may have at most one date_trunc');
  for (const g of groupBy) {
    const t = g.kind === 'date_trunc' || g.kind === 'date_part' ? undefined : tableOfValue(g);
    if (t) tables.add(t);
  }
  const raw = o.select.map((s, j) => selectItem(s, [...loc, 'select', j]));
  const select: { name: string; item: SelectItem }[] = [];
  raw.forEach((item, j) => {
    const at = [...loc, 'select', j];
    if (item.kind === 'group_keys_all') {
      if (!groupBy.length) fail(at, 'group_key needs a group_by clause');
      groupBy.forEach((_, key) => select.push({ name: `group_key.${key}`, item: { kind: 'group_key', key } }));
      return;
    }
    if (item.kind === 'group_key' && item.key >= groupBy.length) fail(at, `group_key ${item.key} names no group_by expression (the query has ${groupBy.length})`);
    const t = item.kind === 'aggregate' ? tableOfValue(item.arg) : item.kind === 'group_key' ? undefined : tableOfValue(item);
    if (t) tables.add(t);
    select.push({ name: nameOf(item), item });
  });
  const source = resolveSource(tables, loc);

  const aggregated = select.some((s) => s.item.kind === 'aggregate');
  select.forEach(({ item }, j) => {
    const plain = item.kind === 'column' || item.kind === 'index' || item.kind === 'source';
    if (plain && groupBy.length) fail([...loc, 'select', j], 'with group_by, select aggregates ({"arg": …, "func": …}) and group keys ({"group_key": n}) only');
    if (plain && aggregated) fail([...loc, 'select', j], 'a query selects either aggregates or plain columns: add a group_by, or aggregate this column too');
  });
  const seen = new Set<string>();
  select.forEach(({ name }, j) => {
    if (seen.has(name)) fail([...loc, 'select', j], `the result already has a column ${name}`);
    seen.add(name);
  });
  const where = typeof o.where === 'string' && o.where.trim() !== '' ? parseWhere(o.where, source, [...loc, 'where']) : undefined;
  return { source, select, groupBy, ...(where ? { where } : {}) };
}

/** `config`: accepted when it asks for nothing this service cannot do. */
export function checkConfig(v: unknown) {
  if (v === undefined || v === null) return;
  const o = object(v, ['config'], 'config');
  keys(o, ['config'], [], ['provider_priority_overrides']);
  const overrides = o.provider_priority_overrides;
  if (overrides === undefined || overrides === null) return;
  if (!Array.isArray(overrides) || overrides.some((x) => typeof x !== 'string')) fail(['config', 'provider_priority_overrides'], 'must be a list of provider slugs', overrides);
  if (overrides.length) {
    fail(['config', 'provider_priority_overrides'], 'provider prioritisation is not supported: every provider\'s summaries are read; group by {"source": "source_provider"} to tell them apart', overrides);
  }
}

// ---- WHERE ------------------------------------------------------------------------------------------

export const MAX_WHERE_LENGTH = 2000;
const MAX_WHERE_DEPTH = 32;
type Token = { t: 'lp' | 'rp' | 'op' | 'str' | 'num' | 'id'; v: string };
/** One token at a time (sticky, anchored, no nested quantifiers: linear). */
const TOKEN = /\s*(?:(\()|(\))|(>=|<=|!=|<>|=|<|>)|'((?:[^']|'')*)'|(-?\d{1,30}(?:\.\d{1,30})?(?:[eE][+-]?\d{1,3})?)|([A-Za-z_][A-Za-z0-9_]{0,63}(?:\.[A-Za-z_][A-Za-z0-9_]{0,63})?))/y;

function tokens(text: string, loc: Loc): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) fail(loc, `cannot read the where clause at character ${at + 1}: ${JSON.stringify(text.slice(at, at + 20))}`, text);
    if (m[1]) out.push({ t: 'lp', v: '(' });
    else if (m[2]) out.push({ t: 'rp', v: ')' });
    else if (m[3]) out.push({ t: 'op', v: m[3] === '<>' ? '!=' : m[3] });
    else if (m[4] !== undefined) out.push({ t: 'str', v: m[4].replace(/''/g, "'") });
    else if (m[5]) out.push({ t: 'num', v: m[5] });
    else out.push({ t: 'id', v: m[6]! });
  }
  return out;
}

/**
 * The SDK's WHERE clause: comparisons (`>`, `>=`, `<`, `<=`, `=`, `!=`) of the query's columns (`score`,
 * `sleep.score`; timeseries: `value`, `type`, …) with each other or with literals (numbers, 'strings',
 * true, false, null), joined by NOT, AND, OR and parentheses. A string compared with a timestamp or date
 * column is read as a date or date-time (local time, as the timeframe).
 */
export function parseWhere(text: string, source: QuerySource, loc: Loc): WhereNode {
  if (text.length > MAX_WHERE_LENGTH) fail(loc, `must be at most ${MAX_WHERE_LENGTH} characters`, text);
  const toks = tokens(text, loc);
  let i = 0;
  const peekWord = (w: string) => toks[i]?.t === 'id' && toks[i]!.v.toLowerCase() === w;
  const expected = (what: string): never => fail(loc, `expected ${what} ${toks[i] ? `at "${toks[i]!.v.slice(0, 40)}"` : 'at the end'}`, text);

  function operand(): WhereOperand {
    const tok = toks[i++];
    if (!tok) return expected('a column or a value');
    if (tok.t === 'num') {
      const n = Number(tok.v);
      if (!Number.isFinite(n) || Math.abs(n) > 1e15) fail(loc, `number ${tok.v.slice(0, 40)} is out of range`, text);
      return { kind: 'literal', type: 'number', value: n };
    }
    if (tok.t === 'str') return { kind: 'literal', type: 'text', value: tok.v };
    if (tok.t !== 'id') { i--; return expected('a column or a value'); }
    const word = tok.v.toLowerCase();
    if (word === 'true' || word === 'false') return { kind: 'literal', type: 'bool', value: word === 'true' };
    if (word === 'null') return { kind: 'null' };
    return { kind: 'value', expr: whereColumn(tok.v, source, loc) };
  }

  function comparison(): WhereNode {
    const left = operand();
    const op = toks[i];
    if (op?.t !== 'op') return expected('a comparison (=, !=, <, <=, >, >=)');
    i++;
    const right = operand();
    return typedComparison(op.v as '=' | '!=' | '<' | '<=' | '>' | '>=', left, right, loc);
  }

  function unary(depth: number): WhereNode {
    if (depth > MAX_WHERE_DEPTH) fail(loc, `is nested deeper than ${MAX_WHERE_DEPTH} levels`, text);
    if (peekWord('not')) {
      i++;
      return { op: 'not', arg: unary(depth + 1) };
    }
    if (toks[i]?.t === 'lp') {
      i++;
      const inner = or(depth + 1);
      if (toks[i]?.t !== 'rp') return expected('")"');
      i++;
      return inner;
    }
    return comparison();
  }

  function and(depth: number): WhereNode {
    let node = unary(depth);
    while (peekWord('and')) {
      i++;
      node = { op: 'and', left: node, right: unary(depth) };
    }
    return node;
  }

  function or(depth: number): WhereNode {
    let node = and(depth);
    while (peekWord('or')) {
      i++;
      node = { op: 'or', left: node, right: and(depth) };
    }
    return node;
  }

  const node = or(0);
  if (i < toks.length) expected('AND, OR or the end');
  return node;
}

function whereColumn(name: string, source: QuerySource, loc: Loc): ValueExpr {
  const [a, b] = name.split('.') as [string, string | undefined];
  if (source.kind === 'summary') {
    const table = source.table;
    if (b !== undefined && a !== table) fail(loc, `${name} is not a column of the query's table ${table}`);
    const col = b ?? a;
    const def = CATALOGUE[table];
    if (col in def.columns) return { kind: 'column', table, column: col };
    if (def.unsupported.includes(col)) fail(loc, `column ${table}.${col} is not supported: the stored ${table} summaries do not carry it`);
    fail(loc, `unknown column ${table}.${col}`);
  }
  const resource = source.resource;
  if (b !== undefined && a !== resource) fail(loc, `${name} is not a field of the query's timeseries ${resource}`);
  const field = b ?? a;
  const interval = (INTERVAL_TIMESERIES as readonly string[]).includes(resource);
  if (field in TIMESERIES_FIELDS || (field === 'duration' && interval)) return { kind: 'field', resource, field };
  fail(loc, `unknown or unsupported field ${resource}.${field}`);
}

const ORDERED: ColType[] = ['number', 'text', 'timestamp', 'date'];

/** Both sides of a comparison of one type; a string literal becomes a date or time beside such a column. */
function typedComparison(cmp: '=' | '!=' | '<' | '<=' | '>' | '>=', left: WhereOperand, right: WhereOperand, loc: Loc): WhereNode {
  const typeOf = (o: WhereOperand) => (o.kind === 'value' ? valueType(o.expr) : o.kind === 'literal' ? o.type : undefined);
  if (left.kind !== 'value' && right.kind !== 'value') fail(loc, 'a comparison needs a column on one side');
  if (left.kind === 'null' || right.kind === 'null') {
    if (cmp !== '=' && cmp !== '!=') fail(loc, 'null compares only with = or !=');
    return { op: 'cmp', cmp, left, right };
  }
  const column = left.kind === 'value' ? left : (right as Extract<WhereOperand, { kind: 'value' }>);
  const colType = valueType(column.expr);
  const coerce = (o: WhereOperand): WhereOperand => {
    if (o.kind !== 'literal' || o.type !== 'text' || (colType !== 'timestamp' && colType !== 'date')) return o;
    const when = parseWhen(o.value, loc);
    if (colType === 'date') {
      if (!when.dateOnly) fail(loc, `compare a date column with a date (YYYY-mm-dd), not ${String(o.value).slice(0, 40)}`);
      return { kind: 'literal', type: 'date', value: String(o.value) };
    }
    return { kind: 'literal', type: 'timestamp', value: when.at.toISOString().replace('T', ' ').replace('Z', '') };
  };
  const l = coerce(left);
  const r = coerce(right);
  if (typeOf(l) !== typeOf(r)) fail(loc, `cannot compare a ${typeOf(l)} with a ${typeOf(r)}`);
  if (!ORDERED.includes(colType) && cmp !== '=' && cmp !== '!=') fail(loc, `${colType} values compare only with = or !=`);
  return { op: 'cmp', cmp, left: l, right: r };
}
