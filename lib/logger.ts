import { pino, type Logger } from 'pino';
import { logMixin } from './log-context.js';

export type { Logger };

/**
 * Structured JSON logs; pretty, coloured lines when attached to a terminal.
 * Nothing that carries a secret is ever passed to the logger, and the redaction list below
 * is a second guard for header maps that might be logged by mistake.
 */
export function createLogger(options: { level: string; name?: string; pretty?: boolean; toStderr?: boolean }): Logger {
  const fd = options.toStderr ? 2 : 1;
  const pretty = options.pretty ?? Boolean((options.toStderr ? process.stderr : process.stdout).isTTY);
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
    pretty ? undefined : pino.destination(fd),
  );
}
