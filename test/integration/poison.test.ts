import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WithStartWorkflowOperation, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { DrizzleQueryError } from 'drizzle-orm';
import postgres from 'postgres';
import { deletionStateQuery, userDeletionWorkflowId, userDeletionWorkflowType } from '../../workflows/user-deletion/definitions.js';
import { endpointStateQuery, wakeSignal, webhookEndpointWorkflowId, webhookEndpointWorkflowType } from '../../workflows/webhooks/definitions.js';
import { NativeConnection } from '@temporalio/worker';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { outboxEvents, parsingJobs, webhookAttempts, webhookDeliveries } from '../../db/schema/index.js';
import { INVALID_DATA } from '../../domain/failures.js';
import { createLogger } from '../../lib/logger.js';
import { installWorkerRuntime } from '../../lib/runtime.js';
import { createWorker, type ServiceWorker } from '../../worker.js';
import { createdUpdate, labReportWorkflowId, labReportWorkflowType, type LabReportJobInput } from '../../workflows/lab-report/definitions.js';
import { testkitLabTest } from '../support/catalog-fixture.js';
import { TEST_SECRET_ENCRYPTION_KEY } from '../support/constants.js';
import { eventually, http, newTeam, startTestStack, type TestStack } from '../support/harness.js';
import { createEndpoint, emitEvents } from '../support/webhooks.js';
import { uniquePngBytes } from '../support/report-images.js';

// A value Postgres refuses in text (22021) that slipped past validation: it must end or hold a workflow,
// never make it retry for ever.
const NUL_NAME = 'report\u0000.pdf';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

async function newUser(apiKey: string): Promise<string> {
  const res = await http(stack, 'POST', '/v2/user', { apiKey, body: { client_user_id: `p-${randomUUID()}` } });
  return res.json.user_id as string;
}

/** What postgres.js throws for a NUL in text, wrapped as drizzle wraps it (the parameters in its message). */
function nulRefusal(): Error {
  const pg = new postgres.PostgresError({ message: 'invalid byte sequence for encoding "UTF8": 0x00', code: '22021', severity: 'ERROR' } as never);
  return new DrizzleQueryError('update "users" set "x" = $1', ['poison\u0000'], pg);
}

describe('workflows whose activities meet refused data', () => {
  const taskQueue = `poison-${randomUUID()}`;
  const calls: (string | null)[] = [];
  const poisoned = new Set<string>();
  const attempts = { eraseUser: 0, deliverDue: 0 };
  let worker: ServiceWorker;
  let running: Promise<void>;
  let connection: NativeConnection;

  beforeAll(async () => {
    // A worker of its own (same workflows, real activities, the real interceptor) on its own task queue,
    // counting every attempt of the job-recording activity.
    await installWorkerRuntime('ERROR');
    connection = await NativeConnection.connect({ address: inject('temporalAddress') });
    const logger = createLogger({ level: 'silent', pretty: false });
    const config = { SECRET_ENCRYPTION_KEY: TEST_SECRET_ENCRYPTION_KEY };
    const real = createActivities({ db: stack.db.db, logger, config });
    worker = await createWorker({
      connection,
      namespace: inject('temporalNamespace'),
      db: stack.db.db,
      logger,
      config,
      options: { taskQueue },
      activityOverrides: {
        createParsingJobRecord: async (input) => {
          calls.push(input.file.name);
          return real.createParsingJobRecord(input);
        },
        // Poisoned ids throw what Postgres would; the interceptor classifies it like any real one.
        eraseUser: async (input) => {
          if (!poisoned.has(input.userId)) return real.eraseUser(input);
          attempts.eraseUser++;
          throw nulRefusal();
        },
        deliverDue: async (input) => {
          if (!poisoned.has(input.endpointId)) return real.deliverDue(input);
          attempts.deliverDue++;
          throw nulRefusal();
        },
      },
    });
    running = worker.run();
  }, 120_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
  });

  it('fails the creating call at once (InvalidData), records the job failed with its webhook event, and ends', async () => {
    const team = await newTeam(stack);
    const userId = await newUser(team.apiKey);
    const jobId = randomUUID();
    const input: LabReportJobInput = {
      jobId,
      teamId: team.teamId,
      userId,
      file: { sha256: 'a'.repeat(64), size: 10, mime: 'application/pdf', name: NUL_NAME },
      needsHumanReview: false,
      reviewDeadlineSeconds: 60,
    };
    const started = Date.now();
    const creating = stack.temporal.workflow.executeUpdateWithStart(createdUpdate, {
      startWorkflowOperation: new WithStartWorkflowOperation(labReportWorkflowType, {
        workflowId: labReportWorkflowId(jobId),
        taskQueue,
        args: [input],
        workflowIdConflictPolicy: 'FAIL',
      }),
    });
    const err = await creating.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
    const cause = (err as WorkflowUpdateFailedError).cause as { type?: string; message: string };
    expect(cause.type).toBe(INVALID_DATA);
    expect(cause.message).toContain('22021');
    expect(cause.message).not.toContain('report');
    expect(Date.now() - started).toBeLessThan(15_000);

    // The workflow ended with the job failed; the activity ran once with the name and once without.
    const outcome = await stack.temporal.workflow.getHandle(labReportWorkflowId(jobId)).result();
    expect(outcome).toMatchObject({ status: 'failed', reason: 'invalid_input' });
    expect(calls.filter((n) => n === NUL_NAME)).toHaveLength(1);
    expect(calls.filter((n) => n === null)).toHaveLength(1);

    const [job] = await stack.db.db.select().from(parsingJobs).where(eq(parsingJobs.id, jobId));
    expect(job).toMatchObject({ status: 'failed', failureReason: 'invalid_input', fileName: null });
    const events = await stack.db.db
      .select({ type: outboxEvents.eventType })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.teamId, team.teamId), eq(outboxEvents.eventType, 'lab_report.parsing_job.updated')));
    expect(events).toHaveLength(1);
    const got = await http(stack, 'GET', `/lab_report/v1/parser/job/${jobId}`, { apiKey: team.apiKey });
    expect(got.json).toMatchObject({ status: 'failed', failure_reason: 'invalid_input' });
  }, 60_000);

  it('a user deletion whose erasure is refused ends failed (ErasureFailed) after one attempt', async () => {
    const team = await newTeam(stack);
    const userId = await newUser(team.apiKey);
    poisoned.add(userId);
    const handle = await stack.temporal.workflow.start(userDeletionWorkflowType, {
      workflowId: `${userDeletionWorkflowId(userId)}-${randomUUID()}`,
      taskQueue,
      args: [{ teamId: team.teamId, userId, graceSeconds: 0 }],
    });
    const err = await handle.result().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((err as WorkflowFailedError).cause).toMatchObject({ type: 'ErasureFailed' });
    expect((err as WorkflowFailedError).cause?.message).toMatch(/SQLSTATE 22021/);
    expect(attempts.eraseUser).toBe(1);
    expect(await handle.query(deletionStateQuery)).toMatchObject({ phase: 'failed' });
  }, 60_000);

  it('an endpoint whose delivery round is refused holds (no retry loop) until woken', async () => {
    const endpointId = randomUUID();
    poisoned.add(endpointId);
    const handle = await stack.temporal.workflow.start(webhookEndpointWorkflowType, {
      workflowId: `${webhookEndpointWorkflowId(endpointId)}-${randomUUID()}`,
      taskQueue,
      args: [{ endpointId }],
    });
    const state = await eventually(async () => {
      const s = await handle.query(endpointStateQuery);
      return s.held !== null && s;
    });
    expect(state.held).toMatch(/SQLSTATE 22021/);
    expect(state.waitingUntil).not.toBeNull();
    await new Promise((r) => setTimeout(r, 3000));
    expect(attempts.deliverDue).toBe(1);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await handle.signal(wakeSignal);
    await eventually(async () => attempts.deliverDue === 2);
    await handle.terminate('test over');
  }, 60_000);
});

describe('API calls that start a workflow with a value the database refuses', () => {
  it('an upload answers 422 {detail} quickly instead of hanging', async () => {
    const team = await newTeam(stack);
    const userId = await newUser(team.apiKey);
    const form = new FormData();
    form.append('file', new Blob([uniquePngBytes()], { type: 'image/png' }), NUL_NAME);
    form.append('user_id', userId);
    const started = Date.now();
    const res = await fetch(`${stack.url}/lab_report/v1/parser/job`, { method: 'POST', headers: { 'x-vital-api-key': team.apiKey }, body: form });
    // 422 from the workflow (or, once NUL is refused at the boundary, from validation): never a hang, never a 500.
    const answer = (await res.json()) as { detail: unknown };
    expect(res.status).toBe(422);
    expect(answer.detail).toBeDefined();
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('an order answers an error {detail} quickly instead of hanging', async () => {
    const team = await newTeam(stack);
    const userId = await newUser(team.apiKey);
    const { labTestId } = await testkitLabTest(stack.db.db, team.teamId);
    const body = {
      user_id: userId,
      lab_test_id: labTestId,
      collection_method: 'testkit',
      patient_details: { first_name: 'Ja\u0000ne', last_name: 'Doe', dob: '1990-05-17', gender: 'female', phone_number: '+14155552671', email: 'jane@example.com' },
      patient_address: { first_line: '123 Main St', city: 'San Francisco', state: 'CA', zip: '94105', country: 'US' },
    };
    const started = Date.now();
    const res = await http(stack, 'POST', '/v3/order', { apiKey: team.apiKey, body });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.json.detail).toBeDefined();
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});

describe('webhook delivery with a poison answer', () => {
  let server: Server;
  let poisonEvent = '';
  const seen: string[] = [];
  beforeAll(async () => {
    // Answers one event with a body holding NUL bytes (the service must store it without them), the rest with 204.
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = req.headers['webhook-id'] as string;
        seen.push(id);
        if (id === poisonEvent) res.writeHead(500, { 'content-type': 'text/plain' }).end('bad\u0000answer');
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('does not wedge the endpoint: the others are delivered, the poison attempts are stored cleaned', async () => {
    const team = await newTeam(stack);
    const port = (server.address() as AddressInfo).port;
    const endpoint = await createEndpoint(stack, team.apiKey, `http://127.0.0.1:${port}/hooks`);
    poisonEvent = randomUUID();
    // The poison event first: its round must still record everything.
    await stack.db.db.transaction(async (tx) => {
      const { recordTeamEvent } = await import('../../db/queries/events.js');
      await recordTeamEvent(tx, { id: poisonEvent, teamId: team.teamId, eventType: 'labtest.order.updated', data: { n: 0 }, subjectId: null, createdAt: new Date() });
    });
    const others = await emitEvents(stack, team.teamId, 3);
    await eventually(async () => {
      const rows = await stack.db.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
      return rows.filter((r) => r.status === 'delivered').length === 3 && rows;
    }, 30_000);
    const attempts = await stack.db.db
      .select({ status: webhookAttempts.statusCode, body: webhookAttempts.responseBody })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(eq(webhookDeliveries.eventId, poisonEvent));
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts[0]).toEqual({ status: 500, body: 'badanswer' });
    for (const id of others) expect(seen).toContain(id);
  }, 60_000);
});
