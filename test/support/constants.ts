/**
 * Fixed for the test run: the service master key (so the API, the shared worker, child worker processes
 * and the replay test all seal and open the same way, and recorded histories stay replayable).
 * A test-only value, never used outside tests.
 */
export const TEST_SECRET_ENCRYPTION_KEY = Buffer.alloc(32, 'labflow-test-key').toString('base64');
