import type { Client } from '@temporalio/client';
import type { Db } from '../../db/client.js';
import type { SessionOperator } from '../../db/queries/dashboard/operators.js';
import type { BlobStore } from '../../lib/blob-store.js';
import type { AppEnv } from '../env.js';

export interface DashboardDeps {
  db: Db;
  temporal: Client;
  blobs: BlobStore;
  environment: 'sandbox' | 'production';
  /** The deployment's region: new team and partner keys are minted for it (default us). */
  region?: 'us' | 'eu';
  /** The service's public URL: cookies are `Secure` when it is https. */
  publicUrl?: string | undefined;
  /** Origins allowed to call POST /dashboard/codec/decode from a browser (the Temporal UI). */
  codecCorsOrigins?: string[];
  /** Session lifetime (default 12 h). */
  sessionTtlSeconds?: number;
}

export interface DashEnv {
  Variables: AppEnv['Variables'] & { operator: SessionOperator };
}

/** A refusal rendered as `{detail}` (API clients) or a short HTML page (browsers). */
export class DashboardError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 502,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'DashboardError';
  }
}
