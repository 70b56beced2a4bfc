import type { Client } from '@temporalio/client';
import type { Db } from '../../../db/client.js';
import type { LabTestLoader, UrlSignerSource } from '../../../db/queries/order-view.js';
import type { ServiceEnvironment } from '../../../domain/environment.js';
import type { NetworkPhysician } from '../../../domain/lab-accounts/physicians.js';
import type { LabOrderDeadlines } from '../../../workflows/lab-order/definitions.js';

export interface OrdersDeps {
  db: Db;
  temporal: Client;
  environment: ServiceEnvironment;
  loadLabTests: LabTestLoader;
  /** Signs document links (`requisition_form_url`). */
  urlSigner: UrlSignerSource;
  /** The service's physicians (domain/physician.ts): they sign orders whose team names none. */
  serviceNetwork: readonly NetworkPhysician[];
  /** Shortened deadlines for tests; production uses the workflow defaults. */
  deadlines?: Partial<LabOrderDeadlines>;
}
