import { createServer } from 'node:net';

/**
 * A start-up failure the user can act on: its message is one line saying what failed and what to do.
 * Entry points print it as is (no stack trace), stop whatever they had started and exit non-zero.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** A port free on loopback now (the OS picks it; another program may take it before it is used). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on 127.0.0.1:`port` (we could bind it ourselves). */
export async function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** Throws a StartupError naming the port, what needs it and the variable that moves it. */
export async function assertPortFree(port: number, what: string, variable: string, host = '127.0.0.1'): Promise<void> {
  if (await portIsFree(port, host)) return;
  throw new StartupError(
    `port ${port} (${what}) is already in use, by another program or another \`npm run dev\`: ` +
      `stop it, or set ${variable} to a free port (e.g. ${variable}=${port + 1})`,
  );
}

/** The first line of an error's message, for the one-line failure report. */
export function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n').find((l) => l.trim() !== '') ?? text).trim();
}
