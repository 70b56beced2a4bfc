import { eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import { describe, expect, it } from 'vitest';
import { compiled, compiledByShape } from '../../db/queries/compiled.js';
import { orders } from '../../db/schema/index.js';

const dialect = new PgDialect();
const db = drizzle.mock();
const p = (name: string) => sql.placeholder(name);

describe('compiled statements', () => {
  it('bind the same text and values as drizzle renders with the values inline (jsonb, Date, array, null)', () => {
    const now = new Date('2026-11-26T07:00:00.123Z');
    const values = { shipment: { id: 's', notes: null }, physician: null, icdCodes: ['E11.9', 'Z00.00'], updatedAt: now, id: 'o-1' };
    const direct = db
      .update(orders)
      .set({ shipment: values.shipment as never, physician: null, icdCodes: values.icdCodes, updatedAt: now })
      .where(eq(orders.id, values.id))
      .returning({ id: orders.id });
    const placeheld = db
      .update(orders)
      .set({ shipment: p('shipment'), physician: p('physician'), icdCodes: p('icdCodes'), updatedAt: p('updatedAt') } as never)
      .where(sql`${orders.id} = ${p('id')}`)
      .returning({ id: orders.id });
    // (drizzle's parameter typings are for other drivers; postgres.js sends text and values only)
    const bound = compiled(placeheld.getSQL())(values);
    const expected = dialect.sqlToQuery(direct.getSQL());
    expect(bound).toEqual({ text: expected.sql, params: expected.params });
    // a null jsonb value is SQL NULL, not the JSON text "null"
    expect(bound.params).toContain(null);
    expect(bound.params).not.toContain('null');
  });

  it('refuses a missing value, and renders each shape once', () => {
    let renders = 0;
    const byShape = compiledByShape((shape) => {
      renders++;
      return sql`select ${p('a')}::text as ${sql.identifier(shape)}`;
    });
    expect(() => byShape('x')({} as never)).toThrow(/no value for placeholder "a"/);
    expect(byShape('x')({ a: '1' })).toEqual({ text: 'select $1::text as "x"', params: ['1'] });
    byShape('y')({ a: '2' });
    expect(renders).toBe(2);
  });
});
