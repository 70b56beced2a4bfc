/**
 * `load` at most once per process, shared by every caller; after a failure (e.g. Postgres down at the
 * first call) the next caller tries again instead of getting the cached failure.
 */
export function onceRetrying<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () =>
    (value ??= load().catch((err: unknown) => {
      value = null;
      throw err;
    }));
}
