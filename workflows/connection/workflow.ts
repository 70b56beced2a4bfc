import {
  ApplicationFailure,
  ParentClosePolicy,
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { createConnectionActivities } from '../../activities/connections/index.js';
import { childTaskQueue } from '../shared/task-queues.js';
import type { LoginResult } from '../../domain/link/adapters.js';
import { isProviderFailure, type LinkOutcome } from '../../domain/link/outcomes.js';
import {
  DEFAULT_MFA_DEADLINE_SECONDS,
  MAX_MFA_ATTEMPTS,
  completeMfaUpdate,
  connectionStateQuery,
  ingestionWorkflowId,
  ingestionWorkflowType,
  linkOutcomeUpdate,
  type ConnectionInput,
  type ConnectionPhase,
  type IngestionInput,
} from './definitions.js';

const acts = proxyActivities<ReturnType<typeof createConnectionActivities>>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * One link attempt of a user to a provider: log in (password providers, maybe with an MFA step), then
 * record the connection and announce it, and hand the connection to ingestion. E-mail providers look the
 * user up by address instead of a login. Demo, manual, sandbox OAuth and bulk-imported connections skip
 * the login. The caller learns each outcome from an Update.
 */
export async function connectionWorkflow(input: ConnectionInput): Promise<ConnectionPhase> {
  let phase = 'attempting' as ConnectionPhase;
  let outcome: LinkOutcome | undefined;
  let connectionId: string | null = null;
  let mfaSession = '';
  let wrongCodes = 0;

  async function settle(result: LoginResult): Promise<LinkOutcome> {
    if (result.kind === 'mfa') {
      mfaSession = result.session;
      phase = 'pending_mfa';
      return { state: 'pending_provider_mfa', method: result.method, hint: result.hint };
    }
    if (result.kind === 'error') {
      if (isProviderFailure(result.errorType)) {
        await acts.recordLinkFailure({ ...base(), errorType: result.errorType, message: result.message, eventId: uuid4() });
      }
      phase = 'failed';
      return { state: 'error', errorType: result.errorType, error: result.message };
    }
    const activated = await acts.activateConnection({
      ...base(),
      method: input.method,
      externalUserId: result.externalUserId,
      sealedCredentials: input.sealedCredentials ?? null,
      linkTokenId: input.linkTokenId ?? null,
      eventId: uuid4(),
    });
    if ('duplicate' in activated) {
      phase = 'failed';
      return { state: 'error', errorType: 'duplicate_connection', error: 'This provider account is already connected to another user of the team.' };
    }
    connectionId = activated.connectionId;
    phase = 'connected';
    if (input.startIngestion) await startIngestion(activated.connectionId);
    return { state: 'success', providerId: activated.connectionId };
  }

  function base() {
    return { teamId: input.teamId, userId: input.userId, provider: input.provider };
  }

  async function startIngestion(id: string): Promise<void> {
    const args: IngestionInput = { ...base(), connectionId: id, demo: input.method === 'demo' };
    try {
      await startChild(ingestionWorkflowType, {
        workflowId: ingestionWorkflowId(id),
        taskQueue: childTaskQueue('ingestion'),
        args: [args],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch (err) {
      // A re-link of a connection whose ingestion already runs: that run carries on.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  setHandler(connectionStateQuery, () => ({ phase, connectionId }));
  setHandler(linkOutcomeUpdate, async () => {
    await condition(() => outcome !== undefined);
    return outcome!;
  });
  setHandler(
    completeMfaUpdate,
    async ({ code }) => {
      phase = 'verifying';
      const result = await acts.completeProviderMfa({ provider: input.provider, session: mfaSession, code });
      if (result.kind === 'error' && result.errorType === 'incorrect_mfa_code' && ++wrongCodes < MAX_MFA_ATTEMPTS) {
        phase = 'pending_mfa';
        return { state: 'error', errorType: 'incorrect_mfa_code', error: result.message };
      }
      return settle(result);
    },
    {
      validator: ({ code, linkTokenId }) => {
        if (phase !== 'pending_mfa') throw ApplicationFailure.nonRetryable(`no MFA challenge is pending (${phase})`, 'NoPendingMfa');
        if (linkTokenId !== input.linkTokenId) throw ApplicationFailure.nonRetryable('the MFA challenge belongs to another link token', 'OtherLinkToken');
        if (typeof code !== 'string' || code.length === 0) throw ApplicationFailure.nonRetryable('empty MFA code', 'BadMfaCode');
      },
    },
  );

  if (input.method === 'password') {
    if (!input.sealedCredentials) throw ApplicationFailure.nonRetryable('a password connection needs credentials', 'MissingCredentials');
    outcome = await settle(await acts.loginToProvider({ provider: input.provider, sealedCredentials: input.sealedCredentials }));
  } else if (input.method === 'email') {
    if (!input.sealedCredentials) throw ApplicationFailure.nonRetryable('an e-mail connection needs the e-mail address', 'MissingCredentials');
    outcome = await settle(await acts.connectEmailProvider({ provider: input.provider, sealedCredentials: input.sealedCredentials }));
  } else {
    outcome = await settle({ kind: 'success', externalUserId: input.externalUserId ?? `${input.method}-${input.userId}` });
  }

  if (phase === 'pending_mfa') {
    const deadline = (input.mfaDeadlineSeconds ?? DEFAULT_MFA_DEADLINE_SECONDS) * 1000;
    const settled = await condition(() => phase === 'connected' || phase === 'failed', deadline);
    if (!settled) {
      await condition(() => phase !== 'verifying');
      if (phase === 'pending_mfa') phase = 'expired';
    }
  }
  await condition(allHandlersFinished);
  return phase;
}
