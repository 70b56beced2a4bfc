import { ApplicationFailure } from '@temporalio/common';
import type { ActivityExecuteInput } from '@temporalio/worker';
import { DrizzleQueryError } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONFLICT_ATTEMPTS, activityErrorInterceptor, classifyActivityError, toActivityFailure } from '../../lib/activity-errors.js';
import { INVALID_DATA, isInvalidData } from '../../domain/failures.js';

const POISON = 'patient-\u0000-secret-value';

/** What postgres.js throws (its own class), wrapped as drizzle wraps it, with the parameters in the message. */
function pgError(code: string, fields: Record<string, string> = {}): Error {
  const pg = new postgres.PostgresError({ message: `server text quoting "${POISON}"`, code, severity: 'ERROR', ...fields } as never);
  return new DrizzleQueryError('insert into "parsing_jobs" ("file_name") values ($1)', [POISON], pg);
}

describe('classifyActivityError', () => {
  it.each(['22021', '22P05', '22001', '22003', '22007', '22008', '22P02', '22012'])('Postgres data error %s is invalid data', (code) => {
    expect(classifyActivityError(pgError(code)).kind).toBe('invalid_data');
  });

  it.each(['23502', '23503', '23514'])('constraint violation %s that no retry heals is invalid data', (code) => {
    expect(classifyActivityError(pgError(code)).kind).toBe('invalid_data');
  });

  it.each(['23505', '23P01'])('unique/exclusion violation %s is a conflict (retried a few times: a racing writer heals it)', (code) => {
    expect(classifyActivityError(pgError(code)).kind).toBe('conflict');
  });

  it.each(['40001', '40P01', '08006', '08001', '57P01', '53300', '55P03', '57014'])('Postgres %s is transient', (code) => {
    expect(classifyActivityError(pgError(code)).kind).toBe('transient');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'CONNECTION_CLOSED', 'CONNECT_TIMEOUT'])('connection error %s is transient', (code) => {
    const err = Object.assign(new Error(`connect ${code} 10.1.2.3:5432`), { code });
    expect(classifyActivityError(err).kind).toBe('transient');
    expect(classifyActivityError(new DrizzleQueryError('select 1', [], err)).kind).toBe('transient');
  });

  it('a zod error is invalid data, named by path and code only', () => {
    const result = z.object({ name: z.string().max(3) }).safeParse({ name: POISON });
    const c = classifyActivityError(result.error);
    expect(c.kind).toBe('invalid_data');
    expect(c.message).toBe('Invalid data: name: too_big');
  });

  it('anything else is unknown (left to the activity policy)', () => {
    expect(classifyActivityError(new TypeError('x is undefined')).kind).toBe('unknown');
    expect(classifyActivityError(pgError('42P01')).kind).toBe('unknown');
  });

  it('messages name the SQLSTATE and where, never the value or the query parameters', () => {
    const c = classifyActivityError(pgError('22021', { table_name: 'parsing_jobs', column_name: 'file_name' }));
    expect(c.message).toContain('22021');
    expect(c.message).toContain('table parsing_jobs, column file_name');
    expect(c.message).not.toContain('secret');
    expect(c.message).not.toContain('\u0000');
  });
});

describe('toActivityFailure', () => {
  it('refused data becomes a non-retryable InvalidData failure without the value', () => {
    const f = toActivityFailure(pgError('22P05'), 1);
    expect(f).toBeInstanceOf(ApplicationFailure);
    const af = f as ApplicationFailure;
    expect(af.type).toBe(INVALID_DATA);
    expect(af.nonRetryable).toBe(true);
    expect(af.cause).toBeUndefined();
    expect(JSON.stringify({ m: af.message, d: af.details })).not.toContain('secret');
    expect(isInvalidData(af)).toBe(true);
  });

  it('a conflict is retryable until its last allowed attempt, then invalid data', () => {
    for (let attempt = 1; attempt < CONFLICT_ATTEMPTS; attempt++) {
      const f = toActivityFailure(pgError('23505'), attempt) as ApplicationFailure;
      expect(f.nonRetryable).toBe(false);
    }
    expect((toActivityFailure(pgError('23505'), CONFLICT_ATTEMPTS) as ApplicationFailure).nonRetryable).toBe(true);
  });

  it('a transient database error stays retryable, with a sanitized message', () => {
    const f = toActivityFailure(pgError('40001'), 50) as ApplicationFailure;
    expect(f.nonRetryable).toBe(false);
    expect(f.message).not.toContain('secret');
  });

  it('an unclassified drizzle error keeps retrying but loses its parameters', () => {
    const wrapped = new DrizzleQueryError('select $1', [POISON], new Error('odd'));
    const f = toActivityFailure(wrapped, 1) as ApplicationFailure;
    expect(f.nonRetryable).toBe(false);
    expect(f.message).toBe('A database query failed');
  });

  it("an activity's own ApplicationFailure and plain errors pass unchanged", () => {
    const own = ApplicationFailure.retryable('blobs still recent', 'BlobsRecentlyTouched');
    expect(toActivityFailure(own, 9)).toBe(own);
    const plain = new Error('boom');
    expect(toActivityFailure(plain, 1)).toBe(plain);
  });
});

describe('activityErrorInterceptor', () => {
  const input = { args: [], headers: {} } as unknown as ActivityExecuteInput;
  const interceptor = (attempt: number) => activityErrorInterceptor({ info: { attempt } } as never).inbound!;

  it('turns an activity throwing refused data into a non-retryable failure', async () => {
    const run = interceptor(1).execute!(input, () => Promise.reject(pgError('22021')));
    await expect(run).rejects.toMatchObject({ type: INVALID_DATA, nonRetryable: true });
  });

  it('passes results through', async () => {
    await expect(interceptor(1).execute!(input, () => Promise.resolve(42))).resolves.toBe(42);
  });
});
