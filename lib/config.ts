import { z } from 'zod';
import { isValidNpi } from '../domain/physician.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

/** Every setting the service reads from the environment. Documented in the README's config table. */
export const configSchema = z.object({
  PORT: port(8000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:/]+:\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:7233')
    .optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  /** Connections each API or worker process keeps to Postgres. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SERVICE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  SERVICE_REGION: z.enum(['us', 'eu']).default('us'),
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Grace period between DELETE /v2/user/{id} and the user's erasure (undo is possible until then). */
  USER_DELETION_GRACE_SECONDS: z.coerce.number().int().min(0).default(7 * 24 * 3600),
  /** How long a verified API key is trusted without asking Postgres again (0 disables the cache). */
  API_KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** AES-256 key (base64, 32 bytes) sealing stored secrets; unset → one made once and kept in Postgres. */
  SECRET_ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)')
    .optional(),
  /** Key (≥ 32 characters) signing document links such as `requisition_form_url`; unset → one made once and kept in Postgres. */
  URL_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters (openssl rand -base64 32)').optional(),
  /** Base of links the service hands out (signed document URLs); unset → `http://localhost:$PORT`. */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http(s) URL without query, e.g. https://labs.example.com')
    .optional(),
  /** Seconds before each webhook delivery attempt (the first is normally 0 = at once). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, 'must be comma-separated seconds, e.g. 0,5,300')
    .default('0,5,300,1800,7200,18000,36000,36000'),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(15),
  /** An endpoint failing without any success for this long is disabled (default 5 days). */
  WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce.number().int().positive().default(5 * 24 * 3600),
  /** How long a lab report parsing job with needs_human_review waits for a reviewer (then completes unreviewed). */
  PARSER_REVIEW_DEADLINE_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 3600),
  /**
   * The service's own physician (all three, or none: then the sandbox network of fictional physicians),
   * on orders of non-delegated accounts and orders whose team names none (domain/physician.ts).
   */
  SERVICE_PHYSICIAN_FIRST_NAME: z.string().trim().min(1).max(100).optional(),
  SERVICE_PHYSICIAN_LAST_NAME: z.string().trim().min(1).max(100).optional(),
  SERVICE_PHYSICIAN_NPI: z.string().refine(isValidNpi, 'must be a 10-digit NPI with a valid check digit').optional(),
  /** Requests per second each team (API key) may make on average; 0 turns the limit off. */
  RATE_LIMIT_TEAM_PER_SECOND: z.coerce.number().min(0).max(100_000).default(100),
  /** Requests a team may make at once after a quiet period (token bucket size). */
  RATE_LIMIT_TEAM_BURST: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /** Requests per second per client address on routes without an API key (signed document links); 0 = off. */
  RATE_LIMIT_IP_PER_SECOND: z.coerce.number().min(0).max(100_000).default(20),
  RATE_LIMIT_IP_BURST: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /** Where the budgets live: `memory` (each API process its own) or `postgres` (one budget shared by every API process). */
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  /**
   * Start the `ingestionWorkflow` child when a connection becomes active (backfill, then periodic pulls),
   * on its own task queue (`labflow-ingestion`). `false` links connections without pulling their data.
   */
  WEARABLE_INGESTION_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Browser origins (comma-separated) of a Temporal UI allowed to call the dashboard's codec endpoint
   * (`POST /dashboard/codec/decode`, with the operator's session cookie). `npm run dev` adds its own UI.
   */
  DASHBOARD_CODEC_ORIGINS: z
    .string()
    .regex(/^\s*(https?:\/\/[^\s/,?#]+\s*)(,\s*https?:\/\/[^\s/,?#]+\s*)*$/, 'must be comma-separated origins, e.g. http://127.0.0.1:8080')
    .optional()
    .transform((v) => (v ? v.split(',').map((o) => o.trim()) : [])),
  /** When set, `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (otherwise it is open, like /health). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The worker process (worker.ts) serves its own /metrics on this port when set (its activities' metrics). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Ports used only when `npm run dev` starts its own Postgres / Temporal. */
  EMBEDDED_POSTGRES_PORT: port(54329),
  TEMPORAL_DEV_PORT: port(7233),
  TEMPORAL_UI_PORT: port(8233),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parse configuration from an environment map; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset so `FOO= npm run dev` behaves like leaving FOO out.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const physician = ['SERVICE_PHYSICIAN_FIRST_NAME', 'SERVICE_PHYSICIAN_LAST_NAME', 'SERVICE_PHYSICIAN_NPI'] as const;
  const missing = physician.filter((k) => parsed.data[k] === undefined);
  if (missing.length > 0 && missing.length < physician.length) {
    throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `  ${k}: required when any SERVICE_PHYSICIAN_* is set (set all three, or none for the sandbox physicians)`).join('\n')}`);
  }
  return parsed.data;
}

/** For entry points: load the config or print the problem and exit 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
