import { LoggerWithComposedMetadata } from '@temporalio/common/lib/logger.js';
import type { LogLevel, Logger } from '@temporalio/common';

const SEVERITIES: LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];
/** The loggers whose dropped lines need no metadata, with the lowest level each keeps. */
const guarded = new Map<Logger, number>();
let installed = false;

/**
 * The Temporal SDK's worker logs at TRACE and DEBUG for every activation and every activity (started,
 * completed…) through `LoggerWithComposedMetadata`, which builds each line's metadata (its contributors:
 * the worker's, the activity's info…) before the logger underneath decides whether the line's level is kept
 * at all. At WARN that was ≈ 4.6% of the order worker's main-thread samples in a `bench:orders` profile, for
 * lines never written. This makes the composed loggers of `logger` (the Runtime's logger, whose level is
 * `level`) skip lines below `level` before building anything; lines at or above it go through unchanged.
 * Patches the SDK's class once (pinned SDK version; test/unit/sdk-log-guard.test.ts checks the behaviour).
 */
export function skipMetadataOfDroppedSdkLines(logger: Logger, level: LogLevel): void {
  guarded.set(logger, SEVERITIES.indexOf(level));
  if (installed) return;
  installed = true;
  const proto = LoggerWithComposedMetadata.prototype as unknown as Record<string, (...args: unknown[]) => void>;
  const dropped = (composed: unknown, lineLevel: LogLevel) => {
    const min = guarded.get((composed as { parentLogger: Logger }).parentLogger);
    return min !== undefined && SEVERITIES.indexOf(lineLevel) < min;
  };
  const log = proto.log!;
  proto.log = function (this: unknown, lineLevel: unknown, message: unknown, meta?: unknown) {
    if (!dropped(this, lineLevel as LogLevel)) log.call(this, lineLevel, message, meta);
  };
  for (const name of ['trace', 'debug', 'info', 'warn', 'error'] as const) {
    const original = proto[name]!;
    const lineLevel = name.toUpperCase() as LogLevel;
    proto[name] = function (this: unknown, message: unknown, meta?: unknown) {
      if (!dropped(this, lineLevel)) original.call(this, message, meta);
    };
  }
}
