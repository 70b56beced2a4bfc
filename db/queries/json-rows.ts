import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * A row read as `to_jsonb(t)` inside a larger statement, mapped to what drizzle's `select().from(t)`
 * returns: keys by the schema's property names, each value through its column's own driver mapping (a
 * timestamp's string becomes a Date, a date stays a string, jsonb stays as parsed). One mapping for every
 * column of the schema, so a column added later is read here too (test/integration/order-steps.test.ts
 * compares it with drizzle's own select).
 */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
