import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../api/errors.js';
import { parseQuery, parseTimeframe, parseWhen } from '../../api/routes/aggregate/parse.js';
import { compileQuery } from '../../db/queries/aggregate.js';

/** The aggregation query language's input side (api/routes/aggregate/parse.ts), without a database. */

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
    throw err;
  }
  throw new Error('not refused');
};
const iso = (d: Date) => d.toISOString().slice(0, 19);

describe('aggregation timeframes', () => {
  it('reads dates and date-times as local wall-clock times, strictly', () => {
    expect(parseWhen('2024-02-29', [])).toEqual({ at: new Date('2024-02-29T00:00:00Z'), dateOnly: true });
    expect(parseWhen('2024-02-29T10:15:30.5+02:00', [])).toEqual({ at: new Date('2024-02-29T10:15:30.500Z'), dateOnly: false });
    for (const bad of ['2023-02-29', '2024-13-01', '2024-01-01T24:00:00Z', '1899-12-31', '2201-01-01', '24-01-01', 'yesterday', '+275760-09-13T00:00:00Z', '2024-01-01 10:00']) {
      expect(refusal(() => parseWhen(bad, ['anchor'])), bad).toMatch(/must be a date/);
    }
  });

  it('a date anchor ends after its day; months and years keep the day where it exists', () => {
    const w = (anchor: string, value: number, unit: string) => {
      const { start, end } = parseTimeframe({ type: 'relative', anchor, past: { value, unit } });
      return [iso(start), iso(end)];
    };
    expect(w('2024-03-31', 7, 'day')).toEqual(['2024-03-25T00:00:00', '2024-04-01T00:00:00']);
    expect(w('2024-03-31T12:00:00', 1, 'month')).toEqual(['2024-02-29T12:00:00', '2024-03-31T12:00:00']);
    expect(w('2024-02-29T00:00:00Z', 1, 'year')).toEqual(['2023-02-28T00:00:00', '2024-02-29T00:00:00']);
    expect(w('2024-03-31T12:00:00', 90, 'minute')).toEqual(['2024-03-31T10:30:00', '2024-03-31T12:00:00']);
    expect(refusal(() => w('2024-03-31', 11, 'year'))).toMatch(/at most 3700 days/);
    expect(refusal(() => w('1901-01-01', 2, 'year'))).toMatch(/before 1900/);
    expect(refusal(() => w('2024-03-31', 0, 'day'))).toMatch(/1 to 100000/);
    expect(refusal(() => parseTimeframe({ placeholder: true }))).toMatch(/placeholder/);
  });
});

describe('aggregation queries', () => {
  it('names result columns and resolves group_key "*"', () => {
    const q = parseQuery({
      select: [{ group_key: '*' }, { arg: { sleep: 'duration_second' }, func: 'mean' }, { arg: { index: 'sleep' }, func: 'count' }],
      group_by: [{ date_trunc: { value: 2, unit: 'week' }, arg: { index: 'sleep' } }, { source: 'source_provider' }],
    }, 0);
    expect(q.source).toEqual({ kind: 'summary', table: 'sleep' });
    expect(q.select.map((s) => s.name)).toEqual(['group_key.0', 'group_key.1', 'mean.duration_second', 'count.index']);
  });

  it('never lets input text into the SQL: unknown names are refused, known ones come from the catalogue', () => {
    expect(refusal(() => parseQuery({ select: [{ sleep: "duration_second'; drop table users; --" }] }, 0))).toMatch(/unknown column sleep\.duration_second'; drop/);
    expect(refusal(() => parseQuery({ select: [{ timeseries: "heartrate' or 1=1", field: 'value' }] }, 0))).toMatch(/unknown timeseries/);
    const q = parseQuery({ select: [{ arg: { activity: 'steps' }, func: 'median' }], group_by: [{ date_part: 'weekday', arg: { index: 'activity' } }] }, 0);
    const compiled = compileQuery(q, { teamId: '00000000-0000-0000-0000-000000000001', userId: '00000000-0000-0000-0000-000000000002' }, {
      start: new Date('2024-01-01T00:00:00Z'), end: new Date('2024-02-01T00:00:00Z'),
    });
    const { sql, params } = new PgDialect().sqlToQuery(compiled);
    expect(sql).toContain('percentile_cont(0.5)');
    expect(sql).toContain('isodow');
    // The team, user, resource and window are bound parameters, not text.
    expect(params).toEqual(expect.arrayContaining(['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002', 'activity', '2024-01-01 00:00:00.000']));
    expect(sql).not.toContain('00000000-0000-0000-0000-000000000001');
  });

  it('refuses mixed, ungrouped and mistyped selections', () => {
    expect(refusal(() => parseQuery({ select: [{ arg: { sleep: 'type' }, func: 'sum' }] }, 0))).toMatch(/sum does not apply to a text column/);
    expect(refusal(() => parseQuery({ select: [{ sleep: 'score' }, { arg: { sleep: 'score' }, func: 'max' }] }, 0))).toMatch(/either aggregates or plain columns/);
    expect(refusal(() => parseQuery({ select: [{ group_key: 3 }], group_by: [{ sleep: 'type' }] }, 0))).toMatch(/names no group_by/);
    expect(refusal(() => parseQuery({ select: [{ index: 'timeseries' }, { sleep: 'score' }] }, 0))).toMatch(/does not go with the sleep table/);
    expect(refusal(() => parseQuery({ select: [{ arg: { value_macro: 'chronotype' }, func: 'newest' }] }, 0))).toMatch(/value macros \(chronotype\)/);
    expect(refusal(() => parseQuery({ select: [{ sleep: 'score' }], where: 'score > 1 and' }, 0))).toMatch(/expected a column or a value/);
    expect(refusal(() => parseQuery({ select: [{ sleep: 'score' }], where: 'wheelchair_use > true' }, 0))).toMatch(/unknown column sleep\.wheelchair_use/);
    expect(refusal(() => parseQuery({ select: [{ activity: 'steps' }], where: 'wheelchair_use > true' }, 0))).toMatch(/bool values compare only with = or !=/);
    expect(refusal(() => parseQuery({ select: [{ activity: 'steps' }], where: "date = '2024-01-01T10:00:00'" }, 0))).toMatch(/compare a date column with a date/);
  });

  it('reads where clauses with precedence NOT > AND > OR, literals bound as parameters', () => {
    const q = parseQuery({ select: [{ sleep: 'score' }], where: "NOT score > 80 OR type = 'it''s' AND session_end >= '2024-03-01T06:00:00Z'" }, 0);
    expect(q.where).toMatchObject({
      op: 'or',
      left: { op: 'not', arg: { op: 'cmp', cmp: '>', right: { kind: 'literal', type: 'number', value: 80 } } },
      right: {
        op: 'and',
        left: { op: 'cmp', cmp: '=', right: { kind: 'literal', type: 'text', value: "it's" } },
        right: { op: 'cmp', cmp: '>=', right: { kind: 'literal', type: 'timestamp', value: '2024-03-01 06:00:00.000' } },
      },
    });
    const { sql, params } = new PgDialect().sqlToQuery(compileQuery(q, { teamId: 't', userId: 'u' }, { start: new Date(0), end: new Date(1) }));
    expect(params).toEqual(expect.arrayContaining([80, "it's", '2024-03-01 06:00:00.000']));
    expect(sql).not.toContain("it's");
  });
});
