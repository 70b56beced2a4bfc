/**
 * Workflow time. Inside Temporal's workflow sandbox `Date.now()` is deterministic: it returns the time
 * of the current workflow task, the same on every replay. Workflow code reads the clock only here.
 */
export function workflowNow(): number {
  // eslint-disable-next-line no-restricted-properties -- the sandbox makes Date deterministic; this is the one sanctioned read
  return Date.now();
}
