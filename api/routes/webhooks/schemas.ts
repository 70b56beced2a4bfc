import { z } from 'zod';
import { isValidFilter } from '../../../domain/webhooks/event-types.js';
import { dateTime, name, queryInt4, text, uuid } from '../../validation.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Endpoint URLs: https always; plain http only to this machine, and only in sandbox. */
export function endpointUrl(environment: 'sandbox' | 'production') {
  return name(2000)
    .refine((v) => URL.canParse(v), { abort: true, message: 'url must be an absolute URL' })
    .superRefine((v, ctx) => {
      if (!URL.canParse(v)) return;
      const u = new URL(v);
      if (u.username || u.password) ctx.addIssue({ code: 'custom', message: 'url must not carry credentials' });
      if (u.protocol === 'https:') return;
      if (u.protocol === 'http:' && environment === 'sandbox' && LOOPBACK.has(u.hostname)) return;
      ctx.addIssue({
        code: 'custom',
        message:
          environment === 'sandbox' ? 'url must be https (plain http only to 127.0.0.1 / localhost in sandbox)' : 'url must be https',
      });
    });
}

const eventTypes = z
  .array(name(100).refine(isValidFilter, 'unknown event type or prefix (prefixes end with a dot, e.g. "labtest.")'))
  .max(50)
  .transform((v) => [...new Set(v)]);

export const createEndpointBody = (environment: 'sandbox' | 'production') =>
  z.strictObject({
    url: endpointUrl(environment),
    event_types: eventTypes.optional().default([]),
    description: text(500, { multiline: true }).optional().default(''),
  });

export const patchEndpointBody = (environment: 'sandbox' | 'production') =>
  z
    .strictObject({
      url: endpointUrl(environment).optional(),
      event_types: eventTypes.optional(),
      description: text(500, { multiline: true }).optional(),
      enabled: z.boolean().optional(),
    })
    .refine((b) => Object.keys(b).length > 0, 'give at least one of url, event_types, description, enabled');

export const idParam = z.object({ id: uuid('id') });

const isoDateTime = dateTime();

export const recoverBody = z.strictObject({ since: isoDateTime });

export const resendEventBody = z.strictObject({ endpoint_id: uuid('endpoint_id').optional() });

export const listEventsQuery = z.object({
  event_type: name(100).optional(),
  since: isoDateTime.optional(),
  until: isoDateTime.optional(),
  order_id: uuid('order_id').optional(),
  user_id: uuid('user_id').optional(),
  delivery_status: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: queryInt4(1).pipe(z.number().max(200)).default(50),
  cursor: name(200).optional(),
});

export const MAX_RESEND_WINDOW_DAYS = 60;

/** POST /v3/order/resend_events (spec): order ids and/or a window of at most 60 days ending now by default. */
export const resendOrderEventsBody = z
  .strictObject({
    order_ids: z.array(uuid('order_ids[]')).max(1000).optional(),
    start_at: isoDateTime.nullish(),
    end_at: isoDateTime.nullish(),
  })
  .superRefine((b, ctx) => {
    // Zod runs this even when a field failed (and was not transformed): judge only well-formed input.
    if ((b.start_at != null && !(b.start_at instanceof Date)) || (b.end_at != null && !(b.end_at instanceof Date))) return;
    if (!b.order_ids?.length && !b.start_at) {
      ctx.addIssue({ code: 'custom', message: 'give order_ids, start_at, or both', path: [] });
      return;
    }
    if (b.end_at && !b.start_at) ctx.addIssue({ code: 'custom', message: 'end_at needs start_at', path: ['end_at'] });
    if (b.start_at) {
      const end = b.end_at ?? new Date();
      if (b.start_at > end) ctx.addIssue({ code: 'custom', message: 'start_at must be before end_at', path: ['start_at'] });
      else if (end.getTime() - b.start_at.getTime() > MAX_RESEND_WINDOW_DAYS * 24 * 3600 * 1000) {
        ctx.addIssue({ code: 'custom', message: `the window from start_at to end_at must not exceed ${MAX_RESEND_WINDOW_DAYS} days`, path: ['start_at'] });
      }
    }
  });
