import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';

/**
 * The aggregation query language (the SDK's `aggregate.queryOne`) over stored summaries
 * (`wearable_summaries`), compiled to one SQL statement per query. Everything that enters the SQL text
 * comes from the constant catalogue below or is a validated integer; the caller's values (team, user,
 * timeframe) are bound parameters.
 *
 * Times: every table's index is the user's local wall-clock time (a `timestamp` without zone): the
 * summary's own instant shifted by its `timezone_offset`, or its calendar date. Group keys and
 * timestamps in results are written `YYYY-MM-DDTHH:MM:SS` without a zone, like the SDK's examples.
 */

export const TABLES = ['sleep', 'activity', 'workout', 'body', 'meal', 'profile'] as const;
export type TableName = (typeof TABLES)[number];
export type ColType = 'number' | 'text' | 'bool' | 'timestamp' | 'date';

interface ColDef {
  type: ColType;
  /** SQL over the row alias `s` (a wearable_summaries row). */
  sql: string;
}

/** `'{a,b}'`: a constant jsonb path. */
const p = (path: string) => `'{${path.split('.').join(',')}}'`;
const num = (path: string, factor = 1): ColDef => ({
  type: 'number',
  sql: `(case when jsonb_typeof(s.data #> ${p(path)}) = 'number' then (s.data #>> ${p(path)})::float8${factor === 1 ? '' : ` * ${factor}`} end)`,
});
const txt = (path: string): ColDef => ({ type: 'text', sql: `(case when jsonb_typeof(s.data #> ${p(path)}) = 'string' then s.data #>> ${p(path)} end)` });
const bool = (path: string): ColDef => ({ type: 'bool', sql: `(case when jsonb_typeof(s.data #> ${p(path)}) = 'boolean' then (s.data #>> ${p(path)})::boolean end)` });
/** The summary's offset from UTC (seconds), 0 when absent or absurd. */
const OFFSET = `make_interval(secs => case when jsonb_typeof(s.data->'timezone_offset') = 'number' and abs((s.data->>'timezone_offset')::float8) <= 86400 then (s.data->>'timezone_offset')::float8 else 0 end)`;
/** An ISO 8601 instant as the ingestion writes it (toISOString); anything else reads as null. */
const ISO = `'^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})$'`;
const localTs = (path: string): ColDef => ({
  type: 'timestamp',
  sql: `(case when jsonb_typeof(s.data #> ${p(path)}) = 'string' and (s.data #>> ${p(path)}) ~ ${ISO} then ((s.data #>> ${p(path)})::timestamptz at time zone 'UTC') + ${OFFSET} end)`,
});
const SOURCE: Record<'source_provider' | 'source_type', ColDef> = {
  source_provider: { type: 'text', sql: 's.provider' },
  source_type: { type: 'text', sql: 's.source_type' },
};
const CALENDAR_DATE: ColDef = { type: 'date', sql: 's.calendar_date' };

interface TableDef {
  /** `wearable_summaries.resource` */
  resource: string;
  /** The primary datetime index (local time). */
  index: string;
  /** Whether `calendar_date` tracks the index (it bounds the scan); profile rows do not. */
  byCalendarDate: boolean;
  columns: Record<string, ColDef>;
  /** Columns of the SDK's enum that the stored summaries do not carry: refused by name. */
  unsupported: string[];
}

const orCalendarDate = (def: ColDef) => `coalesce(${def.sql}, s.calendar_date::timestamp)`;

export const CATALOGUE: Record<TableName, TableDef> = {
  sleep: {
    resource: 'sleep',
    index: orCalendarDate(localTs('bedtime_stop')),
    byCalendarDate: true,
    columns: {
      id: { type: 'text', sql: 's.id::text' },
      session_start: localTs('bedtime_start'),
      session_end: localTs('bedtime_stop'),
      state: txt('state'),
      type: txt('type'),
      duration_second: num('duration'),
      stage_asleep_second: num('total'),
      stage_awake_second: num('awake'),
      stage_light_second: num('light'),
      stage_rem_second: num('rem'),
      stage_deep_second: num('deep'),
      latency_second: num('latency'),
      heart_rate_minimum: num('hr_lowest'),
      heart_rate_mean: num('hr_average'),
      heart_rate_dip: num('hr_dip'),
      heart_rate_resting: num('hr_resting'),
      efficiency: num('efficiency'),
      hrv_mean_rmssd: num('average_hrv'),
      skin_temperature: num('skin_temperature'),
      skin_temperature_delta: num('temperature_delta'),
      respiratory_rate: num('respiratory_rate'),
      score: num('score'),
      ...SOURCE,
    },
    unsupported: ['stage_unknown_second', 'heart_rate_maximum', 'hrv_mean_sdnn', 'source_app_id', 'source_device_id', 'time_zone'],
  },
  activity: {
    resource: 'activity',
    index: 's.calendar_date::timestamp',
    byCalendarDate: true,
    columns: {
      date: CALENDAR_DATE,
      calories_total: num('calories_total'),
      calories_active: num('calories_active'),
      steps: num('steps'),
      distance_meter: num('distance'),
      floors_climbed: num('floors_climbed'),
      // The summary's low / medium / high are minutes.
      intensity_low_second: num('low', 60),
      intensity_medium_second: num('medium', 60),
      intensity_high_second: num('high', 60),
      heart_rate_mean: num('heart_rate.avg_bpm'),
      heart_rate_minimum: num('heart_rate.min_bpm'),
      heart_rate_maximum: num('heart_rate.max_bpm'),
      heart_rate_resting: num('heart_rate.resting_bpm'),
      heart_rate_mean_walking: num('heart_rate.avg_walking_bpm'),
      wheelchair_use: bool('wheelchair_use'),
      wheelchair_push: num('wheelchair_push'),
      time_zone: txt('time_zone'),
      time_zone_offset: num('timezone_offset'),
      ...SOURCE,
    },
    unsupported: ['duration_active_second', 'intensity_sedentary_second', 'source_app_id', 'source_device_id'],
  },
  workout: {
    resource: 'workouts',
    index: orCalendarDate(localTs('time_start')),
    byCalendarDate: true,
    columns: {
      session_start: localTs('time_start'),
      session_end: localTs('time_end'),
      title: txt('title'),
      sport_name: txt('sport.name'),
      sport_slug: txt('sport.slug'),
      duration_active_second: num('moving_time'),
      heart_rate_mean: num('average_hr'),
      heart_rate_maximum: num('max_hr'),
      ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((z) => [`heart_rate_zone_${z}`, num(`hr_zones.${z - 1}`)])),
      distance_meter: num('distance'),
      calories: num('calories'),
      elevation_gain_meter: num('total_elevation_gain'),
      elevation_maximum_meter: num('elev_high'),
      elevation_minimum_meter: num('elev_low'),
      speed_mean: num('average_speed'),
      speed_maximum: num('max_speed'),
      power_mean: num('average_watts'),
      power_maximum: num('max_watts'),
      power_weighted_mean: num('weighted_average_watts'),
      steps: num('steps'),
      map_polyline: txt('map.polyline'),
      map_summary_polyline: txt('map.summary_polyline'),
      external_id: txt('provider_id'),
      ...SOURCE,
    },
    unsupported: ['heart_rate_minimum', 'power_source', 'source_app_id', 'source_device_id', 'time_zone'],
  },
  body: {
    resource: 'body',
    index: orCalendarDate(localTs('date')),
    byCalendarDate: true,
    columns: {
      measured_at: localTs('date'),
      weight_kilogram: num('weight'),
      fat_mass_percentage: num('fat'),
      water_percentage: num('water_percentage'),
      muscle_mass_percentage: num('muscle_mass_percentage'),
      visceral_fat_index: num('visceral_fat_index'),
      bone_mass_percentage: num('bone_mass_percentage'),
      body_mass_index: num('body_mass_index'),
      lean_body_mass_kilogram: num('lean_body_mass_kilogram'),
      waist_circumference_centimeter: num('waist_circumference_centimeter'),
      ...SOURCE,
    },
    unsupported: ['source_app_id', 'source_device_id', 'time_zone'],
  },
  meal: {
    resource: 'meal',
    index: orCalendarDate(localTs('timestamp')),
    byCalendarDate: true,
    columns: {
      date: CALENDAR_DATE,
      name: txt('name'),
      calories: num('energy.value'),
      carbohydrate_gram: num('macros.carbs'),
      protein_gram: num('macros.protein'),
      alcohol_gram: num('macros.alcohol'),
      water_gram: num('macros.water'),
      fibre_gram: num('macros.fibre'),
      sugar_gram: num('macros.sugar'),
      cholesterol_gram: num('macros.cholesterol'),
      saturated_fat_gram: num('macros.fats.saturated'),
      monounsaturated_fat_gram: num('macros.fats.monounsaturated'),
      polyunsaturated_fat_gram: num('macros.fats.polyunsaturated'),
      omega3_fat_gram: num('macros.fats.omega3'),
      omega6_fat_gram: num('macros.fats.omega6'),
      total_fat_gram: num('macros.fats.total'),
      ...SOURCE,
    },
    // Micronutrients are free-form maps in the stored meal (micros.minerals / vitamins): not mapped.
    unsupported: [
      'sodium_milligram', 'potassium_milligram', 'calcium_milligram', 'phosphorus_milligram', 'magnesium_milligram', 'iron_milligram',
      'zinc_milligram', 'fluoride_milligram', 'chloride_milligram', 'vitamin_a_milligram', 'vitamin_b1_milligram', 'riboflavin_milligram',
      'niacin_milligram', 'pantothenic_acid_milligram', 'vitamin_b6_milligram', 'biotin_microgram', 'vitamin_b12_microgram',
      'vitamin_c_milligram', 'vitamin_d_microgram', 'vitamin_e_milligram', 'vitamin_k_microgram', 'folic_acid_microgram',
      'chromium_microgram', 'copper_milligram', 'iodine_microgram', 'manganese_milligram', 'molybdenum_microgram', 'selenium_microgram',
      'source_app_id', 'source_device_id',
    ],
  },
  profile: {
    resource: 'profile',
    index: `(s.updated_at at time zone 'UTC')`,
    byCalendarDate: false,
    columns: {
      height_centimeter: num('height'),
      birth_date: txt('birth_date'),
      wheelchair_use: bool('wheelchair_use'),
      gender: txt('gender'),
      sex: txt('sex'),
      created_at: { type: 'timestamp', sql: `(s.created_at at time zone 'UTC')` },
      updated_at: { type: 'timestamp', sql: `(s.updated_at at time zone 'UTC')` },
      ...SOURCE,
    },
    unsupported: ['source_app_id', 'source_device_id'],
  },
};

/**
 * Timeseries (`wearable_samples`, the SDK's timeseries expressions): one resource per query, its index
 * the sample's local time (`timestamp` shifted by its `timezone_offset`). Blood pressure (the diastolic
 * value is not stored) and notes (no text is stored) are not offered.
 */
export const DISCRETE_TIMESERIES = [
  'glucose', 'heartrate', 'hrv', 'ige', 'igg', 'cholesterol', 'weight', 'fat', 'blood_oxygen', 'electrocardiogram_voltage', 'respiratory_rate', 'stress_level',
] as const;
export const INTERVAL_TIMESERIES = [
  'steps', 'distance', 'vo2_max', 'heart_rate_alert', 'stand_hour', 'sleep_breathing_disturbance', 'insulin_injection', 'water', 'caffeine',
  'mindfulness_minutes', 'calories_active', 'floors_climbed', 'calories_basal', 'afib_burden', 'stand_duration', 'sleep_apnea_alert', 'wheelchair_push',
  'forced_expiratory_volume_1', 'forced_vital_capacity', 'peak_expiratory_flow_rate', 'inhaler_usage', 'fall', 'uv_exposure', 'daylight_exposure',
  'handwashing', 'basal_body_temperature', 'body_mass_index', 'lean_body_mass', 'waist_circumference', 'heart_rate_recovery_one_minute',
  'workout_swimming_stroke', 'workout_distance', 'carbohydrates', 'body_temperature', 'body_temperature_delta', 'workout_duration',
] as const;
export const TIMESERIES_FIELDS: Record<string, ColDef> = {
  value: { type: 'number', sql: 's.value' },
  type: { type: 'text', sql: 's.type' },
  timezone_offset: { type: 'number', sql: 's.timezone_offset::float8' },
  ...SOURCE,
};
/** Interval samples also have a duration (seconds). */
export const DURATION_FIELD: ColDef = { type: 'number', sql: `extract(epoch from (s."end" - s."timestamp"))::float8` };
export const UNSUPPORTED_TIMESERIES_FIELDS = ['source_app_id', 'source_workout_id', 'source_sport', 'sensor_location', 'intensity', 'systolic', 'diastolic', 'tags', 'content'];
/** A timeseries query's window is at most this long: minute data add up. */
export const MAX_TIMESERIES_WINDOW_DAYS = 400;

export const AGGREGATE_FUNCS = ['mean', 'min', 'max', 'sum', 'count', 'median', 'stddev', 'oldest', 'newest'] as const;
export type AggregateFunc = (typeof AGGREGATE_FUNCS)[number];
/** Which argument types each function takes, and what it yields (`same`: the argument's type). */
export const FUNC_TYPES: Record<AggregateFunc, { takes: ColType[]; yields: ColType | 'same' }> = {
  mean: { takes: ['number'], yields: 'number' },
  sum: { takes: ['number'], yields: 'number' },
  median: { takes: ['number'], yields: 'number' },
  stddev: { takes: ['number'], yields: 'number' },
  min: { takes: ['number', 'timestamp', 'date'], yields: 'same' },
  max: { takes: ['number', 'timestamp', 'date'], yields: 'same' },
  count: { takes: ['number', 'text', 'bool', 'timestamp', 'date'], yields: 'number' },
  oldest: { takes: ['number', 'text', 'bool', 'timestamp', 'date'], yields: 'same' },
  newest: { takes: ['number', 'text', 'bool', 'timestamp', 'date'], yields: 'same' },
};

export const PERIOD_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];
export const DATE_PARTS = ['minute', 'hour', 'day', 'week', 'month', 'year', 'weekday', 'week_of_year', 'day_of_year'] as const;
export type DatePart = (typeof DATE_PARTS)[number];

/** A value of a row: a table column, the table's index, or a source column. */
export type ValueExpr =
  | { kind: 'column'; table: TableName; column: string }
  | { kind: 'field'; resource: string; field: string }
  | { kind: 'index'; table: TableName | 'timeseries' }
  | { kind: 'source'; column: 'source_provider' | 'source_type' };
export type GroupExpr = ValueExpr | { kind: 'date_trunc'; value: number; unit: PeriodUnit } | { kind: 'date_part'; part: DatePart };
export type SelectItem = ValueExpr | { kind: 'aggregate'; func: AggregateFunc; arg: ValueExpr } | { kind: 'group_key'; key: number };

/** A WHERE clause, checked: comparisons of row values with each other or with literals of their type. */
export type WhereOperand = { kind: 'value'; expr: ValueExpr } | { kind: 'literal'; type: ColType; value: number | string | boolean } | { kind: 'null' };
export type WhereNode =
  | { op: 'and' | 'or'; left: WhereNode; right: WhereNode }
  | { op: 'not'; arg: WhereNode }
  | { op: 'cmp'; cmp: '=' | '!=' | '<' | '<=' | '>' | '>='; left: WhereOperand; right: WhereOperand };

/** What a query reads: one summary table, or one timeseries resource. */
export type QuerySource = { kind: 'summary'; table: TableName } | { kind: 'timeseries'; resource: string };

/** A query checked by the route: one source, group keys resolved to indexes. */
export interface CompiledInput {
  source: QuerySource;
  select: { name: string; item: SelectItem }[];
  groupBy: GroupExpr[];
  where?: WhereNode;
}

/** A query's window in local wall-clock time: [start, end). */
export interface Window {
  start: Date;
  end: Date;
}

/** The most rows one query answers; a larger result is refused (422), not cut. */
export const MAX_RESULT_ROWS = 10_000;

const fieldDef = (field: string) => (field === 'duration' ? DURATION_FIELD : TIMESERIES_FIELDS[field]!);

export function valueType(e: ValueExpr): ColType {
  if (e.kind === 'index') return 'timestamp';
  if (e.kind === 'source') return 'text';
  if (e.kind === 'field') return fieldDef(e.field).type;
  return CATALOGUE[e.table].columns[e.column]!.type;
}

function valueSql(e: ValueExpr): string {
  if (e.kind === 'index') return 's.idx';
  if (e.kind === 'source') return SOURCE[e.column].sql;
  if (e.kind === 'field') return fieldDef(e.field).sql;
  return CATALOGUE[e.table].columns[e.column]!.sql;
}

function groupSql(g: GroupExpr): { sql: string; type: ColType } {
  if (g.kind === 'date_trunc') {
    const n = g.value; // a validated integer
    if (g.unit === 'month') {
      const m = `(extract(year from s.idx)::int * 12 + extract(month from s.idx)::int - 1) / ${n} * ${n}`;
      return { sql: `make_timestamp((${m}) / 12, (${m}) % 12 + 1, 1, 0, 0, 0)`, type: 'timestamp' };
    }
    if (g.unit === 'year') return { sql: `make_timestamp(extract(year from s.idx)::int / ${n} * ${n}, 1, 1, 0, 0, 0)`, type: 'timestamp' };
    // Fixed-length buckets counted from a Monday: one week is the ISO week, one day the calendar day.
    return { sql: `date_bin(interval '${n} ${g.unit}', s.idx, timestamp '2000-01-03 00:00:00')`, type: 'timestamp' };
  }
  if (g.kind === 'date_part') {
    const field = { minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month', year: 'year', weekday: 'isodow', week_of_year: 'week', day_of_year: 'doy' }[g.part];
    return { sql: `extract(${field} from s.idx)::int`, type: 'number' };
  }
  return { sql: valueSql(g), type: valueType(g) };
}

function operandSql(o: WhereOperand) {
  if (o.kind === 'value') return sql.raw(valueSql(o.expr));
  if (o.kind === 'null') return sql`null`;
  // Literals are bound parameters, cast to the column's type.
  const cast = { number: 'float8', text: 'text', bool: 'boolean', timestamp: 'timestamp', date: 'date' }[o.type];
  return sql`${o.value}::${sql.raw(cast)}`;
}

/** A checked WHERE clause as SQL (a comparison with NULL is `is [not] null`; the parser allows only = and != there). */
function whereSql(n: WhereNode): SQL {
  if (n.op === 'cmp') {
    const nullSide = n.left.kind === 'null' ? n.right : n.right.kind === 'null' ? n.left : undefined;
    if (nullSide) return sql`(${operandSql(nullSide)} ${sql.raw(n.cmp === '=' ? 'is null' : 'is not null')})`;
    return sql`(${operandSql(n.left)} ${sql.raw(n.cmp === '!=' ? '<>' : n.cmp)} ${operandSql(n.right)})`;
  }
  if (n.op === 'not') return sql`(not ${whereSql(n.arg)})`;
  return sql`(${whereSql(n.left)} ${sql.raw(n.op)} ${whereSql(n.right)})`;
}

/** The SQL of a result column of this type, as JSON wants it. */
function out(expr: string, type: ColType): string {
  if (type === 'timestamp') return `to_char(${expr}, 'YYYY-MM-DD"T"HH24:MI:SS')`;
  if (type === 'date') return `to_char(${expr}, 'YYYY-MM-DD')`;
  return expr;
}

function aggregateSql(func: AggregateFunc, v: string): string {
  switch (func) {
    case 'mean': return `avg(${v})`;
    case 'sum': return `sum(${v})`;
    case 'min': return `min(${v})`;
    case 'max': return `max(${v})`;
    case 'count': return `count(${v})::int`;
    case 'median': return `percentile_cont(0.5) within group (order by ${v})`;
    case 'stddev': return `stddev_samp(${v})`;
    case 'oldest': return `(array_agg(${v} order by r.idx asc) filter (where ${v} is not null))[1]`;
    case 'newest': return `(array_agg(${v} order by r.idx desc) filter (where ${v} is not null))[1]`;
  }
}

/** The statement of one query (exported for tests that read the SQL). */
export function compileQuery(q: CompiledInput, scope: { teamId: string; userId: string }, w: Window) {
  // Row values the outer query reads: the group keys g<i>, the selected or aggregated values v<j>.
  const groups = q.groupBy.map(groupSql);
  const values: string[] = [];
  const valueIndex = (e: ValueExpr) => {
    const s = valueSql(e);
    let i = values.indexOf(s);
    if (i === -1) i = values.push(s) - 1;
    return `r.v${i}`;
  };
  const columns = q.select.map(({ item }) => {
    if (item.kind === 'group_key') return out(`r.g${item.key}`, groups[item.key]!.type);
    if (item.kind === 'aggregate') {
      const yields = FUNC_TYPES[item.func].yields;
      return out(aggregateSql(item.func, valueIndex(item.arg)), yields === 'same' ? valueType(item.arg) : yields);
    }
    return out(valueIndex(item), valueType(item));
  });
  const grouped = q.groupBy.length > 0;
  const aggregated = q.select.some(({ item }) => item.kind === 'aggregate');
  const inner = [
    's.idx',
    ...groups.map((g, i) => `${g.sql} as g${i}`),
    ...values.map((v, i) => `${v} as v${i}`),
  ].join(', ');
  const fmtTs = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
  const rows = q.source.kind === 'summary' ? summaryRows(q.source.table, scope, w) : sampleRows(q.source.resource, scope, w);
  const select = sql.raw(columns.map((c, i) => `${c} as c${i}`).join(', '));
  const groupKeys = q.groupBy.map((_, i) => `r.g${i}`).join(', ');
  const tail = grouped
    ? sql.raw(`group by ${groupKeys} order by ${groupKeys}`)
    : aggregated
      ? sql.raw('having count(*) > 0') // no rows, no result row (as with groups)
      : sql.raw('order by r.idx');
  return sql`
    select ${select} from (
      select ${sql.raw(inner)} from (${rows}) s
      where s.idx >= ${fmtTs(w.start)}::timestamp and s.idx < ${fmtTs(w.end)}::timestamp ${q.where ? sql`and ${whereSql(q.where)}` : sql``}
    ) r
    ${tail}
    limit ${MAX_RESULT_ROWS + 1}`;
}

/** The summary rows of one table that may fall in the window (calendar dates bound the index scan), with their index. */
function summaryRows(name: TableName, scope: { teamId: string; userId: string }, w: Window) {
  const table = CATALOGUE[name];
  const dayBefore = new Date(w.start.getTime() - 2 * 86_400_000).toISOString().slice(0, 10);
  const dayAfter = new Date(w.end.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
  return sql`
    select ${sql.raw(table.index)} as idx, s.* from wearable_summaries s
    where s.team_id = ${scope.teamId}::uuid and s.user_id = ${scope.userId}::uuid and s.resource = ${table.resource}
      ${table.byCalendarDate ? sql`and s.calendar_date between ${dayBefore}::date and ${dayAfter}::date` : sql``}`;
}

/**
 * The samples of one resource that may fall in the window (UTC instants a day either side: offsets are
 * under a day), with their local-time index. Samples carry no team: the route has checked that the user
 * is the caller team's.
 */
function sampleRows(resource: string, scope: { userId: string }, w: Window) {
  const from = new Date(w.start.getTime() - 86_400_000).toISOString();
  const to = new Date(w.end.getTime() + 86_400_000).toISOString();
  return sql`
    select (w."timestamp" at time zone 'UTC') + make_interval(secs => coalesce(w.timezone_offset, 0)) as idx, w.* from wearable_samples w
    where w.user_id = ${scope.userId}::uuid and w.resource = ${resource}
      and w."timestamp" >= ${from}::timestamptz and w."timestamp" < ${to}::timestamptz`;
}

/** A query the caller must narrow: too many result rows, or over the statement timeout. */
export class QueryTooLarge extends Error {}

/** No query runs longer than this (then it is refused, not waited for). */
export const QUERY_TIMEOUT_MS = 5_000;

/** Runs one query: the result table, column-oriented (name → values). */
export async function runAggregateQuery(
  db: Db,
  q: CompiledInput,
  scope: { teamId: string; userId: string },
  w: Window,
): Promise<Record<string, unknown[]>> {
  let rows: Record<string, unknown>[];
  try {
    rows = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${QUERY_TIMEOUT_MS}`));
      return [...(await tx.execute<Record<string, unknown>>(compileQuery(q, scope, w)))];
    });
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === '57014') throw new QueryTooLarge(`the query ran longer than ${QUERY_TIMEOUT_MS / 1000} s`);
    throw err;
  }
  if (rows.length > MAX_RESULT_ROWS) throw new QueryTooLarge(`the result has more than ${MAX_RESULT_ROWS} rows`);
  const table: Record<string, unknown[]> = {};
  q.select.forEach(({ name }, i) => {
    table[name] = rows.map((r) => normalise(r[`c${i}`]));
  });
  return table;
}

/** Numbers from avg/sum (float8) are numbers; anything numeric-as-text (none expected) becomes one. */
function normalise(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}
