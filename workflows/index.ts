// Every workflow the service worker runs. The worker bundles this file; nothing here may do I/O.
export { userDeletionWorkflow } from './user-deletion/workflow.js';
export { labOrderWorkflow } from './lab-order/workflow.js';
export { webhookEndpointWorkflow } from './webhooks/workflow.js';
export { labReportParsingWorkflow } from './lab-report/workflow.js';
export { connectionWorkflow } from './connection/workflow.js';
export { ingestionWorkflow } from './ingestion/workflow.js';
export { linkBulkOpWorkflow } from './link-bulk/workflow.js';
