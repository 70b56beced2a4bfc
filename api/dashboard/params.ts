import { z } from 'zod';
import { COLLECTION_METHODS, TOP_LEVEL_STATUSES } from '../../domain/orders/status.js';
import { DashboardError } from './env.js';

const empty = (v: unknown) => (v === '' ? undefined : v);
export const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD').refine((s) => !Number.isNaN(Date.parse(s)), 'not a date');
const isoTime = z.string().max(40).refine((s) => !Number.isNaN(Date.parse(s)), 'must be a date-time');

/** `<ISO time>_<uuid>`: the last row of the previous page. */
export const cursor = z
  .string()
  .max(80)
  .transform((s, ctx) => {
    const [at, id] = s.split('_');
    if (!at || !id || Number.isNaN(Date.parse(at)) || !uuid.safeParse(id).success) {
      ctx.addIssue({ code: 'custom', message: 'not a page cursor' });
      return z.NEVER;
    }
    return { createdAt: new Date(at), id };
  });
export const cursorOf = (row: { createdAt: Date; id: string }) => `${row.createdAt.toISOString()}_${row.id}`;

export const orderSearchQuery = z.object({
  q: z.preprocess(empty, z.string().trim().max(200).optional()),
  team: z.preprocess(empty, uuid.optional()),
  status: z.preprocess(empty, z.enum(TOP_LEVEL_STATUSES).optional()),
  method: z.preprocess(empty, z.enum(COLLECTION_METHODS).optional()),
  from: z.preprocess(empty, day.optional()),
  to: z.preprocess(empty, day.optional()),
  before: z.preprocess(empty, cursor.optional()),
  limit: z.preprocess(empty, z.coerce.number().int().min(1).max(200).default(50)),
});

export const deliveryLogQuery = z.object({
  team: z.preprocess(empty, uuid.optional()),
  endpoint: z.preprocess(empty, uuid.optional()),
  order: z.preprocess(empty, uuid.optional()),
  status: z.preprocess(empty, z.enum(['pending', 'delivered', 'failed']).optional()),
  event_type: z.preprocess(empty, z.string().max(100).regex(/^[a-z_.]+$/, 'letters, dots and underscores').optional()),
  since: z.preprocess(empty, isoTime.optional()),
  until: z.preprocess(empty, isoTime.optional()),
});

export const replayFilter = z.object({
  team: uuid,
  event_type: z.preprocess(empty, z.string().max(100).regex(/^[a-z_.]+$/, 'letters, dots and underscores').optional()),
  order: z.preprocess(empty, uuid.optional()),
  since: isoTime,
  until: z.preprocess(empty, isoTime.optional()),
});

/** Parses or throws a 400 naming the first bad field. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new DashboardError(400, `${issue.path.join('.') || 'input'}: ${issue.message}`);
  }
  return r.data;
}
