/**
 * Error bodies every route answers with (CONTRACT §12): `{detail: string}` for 4xx other than
 * validation, FastAPI-style `{detail: [{loc, msg, type}]}` for 422.
 */
import { z } from 'zod';

export const errorBody = z.object({ detail: z.string().min(1) });

export const validationErrorItem = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});

export const validationErrorBody = z.object({ detail: z.array(validationErrorItem).min(1) });
