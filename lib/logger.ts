import { pino, type DestinationStream, type Logger } from 'pino';
import { logMixin } from './log-context.js';

export type { Logger };

/**
 * Structured JSON logs; pretty, coloured lines when attached to a terminal.
 * Nothing that carries a secret is ever passed to the logger, and the redaction list below
 * is a second guard for header maps that might be logged by mistake.
 */
export function createLogger(options: {
  level: string;
  name?: string;
  pretty?: boolean;
  toStderr?: boolean;
  /** Where the JSON lines go instead of stdout / stderr (tests, bench/log-line.ts); never pretty. */
  destination?: DestinationStream;
}): Logger {
  const fd = options.toStderr ? 2 : 1;
  const pretty = !options.destination && (options.pretty ?? Boolean((options.toStderr ? process.stderr : process.stdout).isTTY));
  return pino(
    {
    level: options.level,
    name: options.name,
    // The request id, or the workflow id / run id / activity, of whatever is running (lib/log-context.ts).
    mixin: logMixin,
    redact: {
      paths: [
        'headers["x-service-api-key"]',
        'headers["x-vital-api-key"]',
        'headers.authorization',
        '*.headers["x-service-api-key"]',
        '*.headers["x-vital-api-key"]',
        'api_key',
        'password',
      ],
      censor: '[redacted]',
    },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', destination: fd },
          },
        }
      : {}),
    },
    pretty ? undefined : (options.destination ?? pino.destination(fd)),
  );
}

/**
 * `logger` without the redaction pass, for lines whose fields are all fixed by the caller and carry no secret
 * (the per-request line of api/middleware/request-log.ts: method, path, status, latency, team id, and the log
 * context's ids). The redaction list has wildcard paths (`*.headers[…]`), so pino runs its redactor over every
 * field of every line: about half of what the request line costs (bench/log-line.ts). Same destination, level,
 * name and mixin; the output of such a line is the same either way, since no redacted path can occur in it.
 */
export function withoutRedaction(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}
