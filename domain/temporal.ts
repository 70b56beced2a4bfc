/** The one task queue the service's worker polls; every workflow and activity runs on it. */
export const SERVICE_TASK_QUEUE = 'labflow-service';
