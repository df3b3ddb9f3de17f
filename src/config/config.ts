// The only reader of process.env: every setting of the README's Configuration (and the few operational extras), validated once.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { availableParallelism, hostname } from 'node:os';
import { z } from 'zod';
import { parsePrivateTargets, type PrivateTargets } from './private-targets.js';
import { inWords } from '../base/validation.js';

const durationPattern = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const unitMs: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses "1s,5s,30s,2m" into milliseconds. */
export function parseDurationList(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const match = durationPattern.exec(part);
      if (!match) throw new Error(`"${part}" is not a duration (use e.g. 500ms, 5s, 2m, 1h)`);
      return Math.round(Number(match[1]) * unitMs[match[2]]);
    });
}

/**
 * The duplicate window's default: longer than the longest retry horizon of the catalogue's sites (top.gg's legacy
 * webhooks retry for about 17 minutes; the catalogue test checks every template's `retry_horizon_seconds`).
 */
export const DEFAULT_DUPLICATE_WINDOW = '20m';
/** The shortest window allowed: the Votifier method refuses timestamps older than 9 minutes (auth-methods/votifier.ts). */
const MIN_DUPLICATE_WINDOW_MS = 10 * 60_000;

/** WEB_CONCURRENCY's bound: each process opens its own database connections (about a dozen on PostgreSQL). */
const MAX_PROCESSES = 1024;

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .default('file:./data/vote-relay.db')
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), 'must start with file: or postgres:// / postgresql://'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  HOOK_BASE_URL: z.string().url().optional(),
  VOTIFIER_PORT: z.coerce.number().int().min(0).max(65535).default(8192),
  VOTIFIER_HOST: z.string().min(1).max(253).optional(),
  VOTIFIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  VOTIFIER_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(10_000).default(10),
  VOTIFIER_DEDICATED_PORTS: z
    .string()
    .regex(/^\d{1,5}-\d{1,5}$/, 'must be a port range such as 20000-20099')
    .refine((v) => {
      const [from, to] = v.split('-').map(Number);
      return from >= 1 && from <= to && to <= 65535;
    }, 'must be a port range from low to high, within 1-65535')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// address (redis://host:6379)')
    .optional(),
  SECRET_KEY: z.string().min(16, 'must be at least 16 characters (32 random bytes, base64, recommended)').optional(),
  ALLOW_PRIVATE_TARGETS: z.string().optional(),
  RETRY_SCHEDULE: z.string().default('1s,5s,30s,2m,10m,30m,1h,2h,4h,8h'),
  RETRY_JITTER: z.coerce.number().min(0).max(0.5).default(0.2),
  SIGNING_SECRET_OVERLAP: z.string().default('24h'),
  DUPLICATE_WINDOW: z.string().default(DEFAULT_DUPLICATE_WINDOW),
  CALLBACK_DISABLE_AFTER: z.string().default('5d'),
  RECOVERY_INTERVAL: z.string().default('5m'),
  VOTE_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  RAW_PAYLOAD_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
  RETENTION_INTERVAL: z.string().default('1h'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  REPLAY_MAX_VOTES: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
  TOPGG_API_URL: z.string().url().default('https://top.gg/api'),
  // Discord's REST API, version included (README "Discord rewards"); tests point it at a local fake.
  DISCORD_API_URL: z.string().url().default('https://discord.com/api/v10'),
  CHAT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  CHAT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(60_000).default(10_000),
  PULL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1_000).default(100),
  WRITE_BATCH_MAX: z.coerce.number().int().min(1).max(10_000).default(256),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  HOOK_LOG_RETENTION: z.string().default('7d'),
  HOOK_LOG_MAX_PER_PROVIDER: z.coerce.number().int().min(0).max(10_000_000).default(10_000),
  HOOK_LOG_MAX_REFUSED_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  // Operational extras (documented in the README).
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(500),
  HOOK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(500),
  IP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  HOOK_FAILURE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
  VOTE_PAGE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(0).max(1000).default(16),
  DELIVERY_ENABLED: bool.default(true),
  DELIVERY_THREAD: bool.default(true),
  WRITE_THREAD: bool.default(true),
  DELIVERY_LEASE_MS: z.coerce.number().int().min(1_000).default(120_000),
  DELIVERY_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  ALERTS_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  // Due reminders are looked for this often (a seek along the due-time index, never a scan); 0: not in this process.
  REMINDERS_INTERVAL_MS: z.coerce.number().int().min(0).default(1_000),
  REMINDERS_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  // How often an RCON callback holding votes parked for offline players asks its server who is online (`list`).
  RCON_ONLINE_POLL: z.string().default('30s'),
  // How often Discord vote roles past their expiry are looked for and taken away (README "Discord rewards").
  ROLE_EXPIRY_INTERVAL: z.string().default('5s'),
  GRAPHQL_INTROSPECTION: bool.default(true),
  TRUST_PROXY: z.string().default('loopback'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  WEB_CONCURRENCY: z
    .string()
    .refine(
      (v) => v === 'auto' || (/^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_PROCESSES),
      `must be a whole number from 1 to ${MAX_PROCESSES}, or auto (one process per CPU core)`,
    )
    .default('1'),
  INSTANCE_ID: z
    .string()
    .max(100, 'must be at most 100 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  // Set by the primary process for each of its workers (src/app/cluster.ts), never by hand.
  VOTE_RELAY_WORKER_INDEX: z.coerce.number().int().min(1).max(MAX_PROCESSES).optional(),
});

export type Dialect = 'sqlite' | 'postgresql';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  dialect: Dialect;
  /** Folder that holds the SQLite file and the generated secret key (SQLite only). */
  dataDir: string | null;
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL was not set (http://localhost:<PORT>). */
  publicBaseUrlDefault: boolean;
  hookBaseUrl: string;
  /** The setting each address given out comes from (what the start-up warning and the provider pages name). */
  addressSettings: { hooks: 'HOOK_BASE_URL' | 'PUBLIC_BASE_URL'; votifier: 'VOTIFIER_HOST' | 'PUBLIC_BASE_URL' };
  /** The Votifier TCP listener's port (bound on HOST); 0: no listener. */
  votifierPort: number;
  /** The host shown to users for Votifier lists (default: the host of PUBLIC_BASE_URL). */
  votifierHost: string;
  /** A Votifier session that has not sent its whole vote within this long is closed. */
  votifierTimeoutMs: number;
  votifierMaxConnectionsPerIp: number;
  /** Ports an operator lets Votifier providers have to themselves (v1 without routing); null: none. */
  votifierDedicatedPorts: { from: number; to: number } | null;
  redisUrl: string | null;
  secretKey: string | null;
  /** The private (non-public) targets an operator allows (ALLOW_PRIVATE_TARGETS): none, all, or a list. */
  privateTargets: PrivateTargets;
  retryScheduleMs: number[];
  /** Attempts of a chat notification (the platforms throttle and fail transiently). */
  chatMaxAttempts: number;
  /** One chat post's bound. */
  chatTimeoutMs: number;
  /** Failures a pulled vote survives (each brings it back after a back-off) before it is given up. */
  pullMaxAttempts: number;
  /** Items in one batch-writer transaction (votes, attempt records): bounds each commit and the locks it holds. */
  writeBatchMax: number;
  /** How long a callback's replaced signing secret keeps signing beside the new one after rotate-secret. */
  signingSecretOverlapMs: number;
  /** The same delivery of a provider within this long is the same vote (the README's Duplicates). */
  duplicateWindowMs: number;
  /** A callback whose every attempt failed for this long is disabled (its jobs are held until it is enabled). */
  callbackDisableAfterMs: number;
  /** Votes older than this many days are deleted (their per-day rollups stay); 0 keeps them. */
  voteRetentionDays: number;
  /** Stored inbound bodies of votes older than this many days are cleared; 0 keeps them. */
  rawPayloadRetentionDays: number;
  /** How often retention runs; 0 turns it off in this process. */
  retentionIntervalMs: number;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** The most votes one callback replay queues, and the most replayed deliveries of a callback waiting at once. */
  replayMaxVotes: number;
  /** How often providers holding a site API token have the site's vote list read for votes the hook missed. */
  recoveryIntervalMs: number;
  /** top.gg's API base (its vote list: GET {base}/v1/projects/@me/votes). */
  topggApiUrl: string;
  discordApiUrl: string;
  /** Each scheduled retry waits its schedule entry ± this fraction (0 = exactly the schedule). */
  retryJitter: number;
  logLevel: string;
  /** json (default) or pretty (human-readable); unset: pretty when stdout is a terminal. */
  logFormat: 'json' | 'pretty' | null;
  /** Hook request log entries older than this are deleted (README "Hook request log"). */
  hookLogRetentionMs: number;
  /** Entries kept per provider (accepted, duplicate, test, ignored; refused ones are capped apart); 0 turns the log off. */
  hookLogMaxPerProvider: number;
  /** Refused requests kept per provider (or organization-level log) and client address; the rest are counted. */
  hookLogMaxRefusedPerAddress: number;
  apiRateLimitPerMinute: number;
  hookRateLimitPerMinute: number;
  ipRateLimitPerMinute: number;
  /** Refused (unauthenticated) hook deliveries per minute from one client address to one organization. */
  hookFailureLimitPerMinute: number;
  /** Vote page requests (the page, its JSON, its buttons' clicks) per minute from one client address. */
  votePageRateLimitPerMinute: number;
  deliveryConcurrency: number;
  deliveryEnabled: boolean;
  /** Run the delivery worker on its own thread (own database connections) instead of the main one. */
  deliveryThread: boolean;
  /** The hot writes (votes; on SQLite also claims and attempt records) on their own thread, off the request thread. */
  writeThread: boolean;
  deliveryLeaseMs: number;
  deliveryPollMs: number;
  /** How often scheduled admin alerts are checked; 0 turns the scheduler off in this process. */
  alertsIntervalMs: number;
  remindersIntervalMs: number;
  remindersBatch: number;
  /** How often RCON targets holding parked votes are asked who is online; 0 turns it off in this process. */
  rconOnlinePollMs: number;
  /** How often expired Discord vote roles are taken away; 0 turns it off in this process. */
  roleExpiryIntervalMs: number;
  graphqlIntrospection: boolean;
  trustProxy: string;
  shutdownTimeoutMs: number;
  /** A client must send its request headers within this time, and the whole request within the next (slowloris). */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  /** Service processes `main.ts` starts (WEB_CONCURRENCY, `auto` resolved); on SQLite they write through the primary. */
  webConcurrency: number;
  /**
   * This process's identity, stable across its restarts and unique among live instances (INSTANCE_ID, default
   * `<host name>:<PORT>`); a worker of several processes adds `/<worker index>`.
   */
  instanceId: string;
  /** 1..WEB_CONCURRENCY in a worker process of the primary (src/app/cluster.ts); null in a single process. */
  workerIndex: number | null;
  /** The .env file the settings were read with (environment()), or null. */
  envFile: string | null;
}

/** What loadConfig reads of the machine (tests pass their own). */
export interface Machine {
  hostname(): string;
  availableParallelism(): number;
}

export class ConfigError extends Error {}

/** The file of settings both the service and the CLI read from the directory they run in (README "First steps"). */
export const ENV_FILE = '.env';

/**
 * The settings to load: `env` over the `.env` file of `cwd` (a variable set in the environment wins), and the file's
 * path when there was one. A file that cannot be read is a ConfigError.
 */
export function environment(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): { env: Record<string, string | undefined>; file: string | null } {
  const file = resolve(cwd, ENV_FILE);
  if (!existsSync(file)) return { env, file: null };
  let values: Record<string, string>;
  try {
    values = parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ${file}: could not be read (${(err as Error).message})`);
  }
  const merged: Record<string, string | undefined> = { ...values };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return { env: merged, file };
}

/** One duration setting within [min, max] (0 or "0" allowed when min is 0: the feature is off); a problem is added to `problems`. */
function oneDuration(problems: string[], name: string, text: string, min: number, max: number): number {
  let parsed: number[] = [];
  try {
    parsed = text.trim() === '0' ? [0] : parseDurationList(text);
  } catch {
    // reported below
  }
  if (parsed.length !== 1 || parsed[0] < min || parsed[0] > max) {
    const fmt = (ms: number) => (ms % 86_400_000 === 0 ? `${ms / 86_400_000}d` : ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);
    problems.push(`${name}: must be one duration from ${fmt(min)} to ${fmt(max)} (e.g. 20m, 5d)`);
    return min;
  }
  return parsed[0];
}

function sqliteDataDir(url: string): string {
  const path = url.slice('file:'.length).split('?')[0];
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '.' : path.slice(0, slash) || '/';
}

/**
 * INSTANCE_ID's default: the host name and PORT, the same on every restart of an instance. A PORT of 0 (a port
 * picked at start) names no stable instance, so a random suffix keeps such processes apart instead.
 */
function defaultInstanceId(machine: Machine, port: number): string {
  const host =
    machine
      .hostname()
      .replace(/[^\x21-\x7e]/g, '_')
      .slice(0, 90) || 'localhost';
  return port === 0 ? `${host}:0-${randomBytes(4).toString('hex')}` : `${host}:${port}`;
}

/**
 * Reads and validates the environment; throws ConfigError with one line per problem, every problem at once (a setting
 * that fails its own check is left at its default while the others are checked).
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  machine: Machine = { hostname, availableParallelism },
  envFile: string | null = null,
): Config {
  const problems: string[] = [];
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  let parsed = envSchema.safeParse(given, { error: inWords });
  const invalid = new Set<string>();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join('.') || 'environment'}: ${issue.message}`);
      invalid.add(String(issue.path[0]));
    }
    parsed = envSchema.safeParse(Object.fromEntries(Object.entries(given).filter(([k]) => !invalid.has(k))), { error: inWords });
    if (!parsed.success) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  let retryScheduleMs: number[] = [1_000];
  try {
    const schedule = parseDurationList(e.RETRY_SCHEDULE);
    if (schedule.length === 0) throw new Error('must list at least one delay');
    retryScheduleMs = Object.freeze(schedule) as number[];
  } catch (err) {
    problems.push(`RETRY_SCHEDULE: ${(err as Error).message}`);
  }
  let overlap: number[] = [];
  try {
    overlap = parseDurationList(e.SIGNING_SECRET_OVERLAP);
  } catch {
    // reported below
  }
  if (overlap.length !== 1) problems.push('SIGNING_SECRET_OVERLAP: must be one duration such as 24h (0s turns the overlap off)');
  const duplicateWindowMs = oneDuration(problems, 'DUPLICATE_WINDOW', e.DUPLICATE_WINDOW, MIN_DUPLICATE_WINDOW_MS, 7 * 86_400_000);
  const callbackDisableAfterMs = oneDuration(problems, 'CALLBACK_DISABLE_AFTER', e.CALLBACK_DISABLE_AFTER, 60_000, 365 * 86_400_000);
  const recoveryIntervalMs = oneDuration(problems, 'RECOVERY_INTERVAL', e.RECOVERY_INTERVAL, 0, 86_400_000);
  const retentionIntervalMs = oneDuration(problems, 'RETENTION_INTERVAL', e.RETENTION_INTERVAL, 0, 7 * 86_400_000);
  const hookLogRetentionMs = oneDuration(problems, 'HOOK_LOG_RETENTION', e.HOOK_LOG_RETENTION, 0, 365 * 86_400_000);
  const rconOnlinePollMs = oneDuration(problems, 'RCON_ONLINE_POLL', e.RCON_ONLINE_POLL, 0, 3_600_000);
  const roleExpiryIntervalMs = oneDuration(problems, 'ROLE_EXPIRY_INTERVAL', e.ROLE_EXPIRY_INTERVAL, 0, 3_600_000);
  const privateTargets = parsePrivateTargets(e.ALLOW_PRIVATE_TARGETS);
  for (const error of privateTargets.errors) problems.push(`ALLOW_PRIVATE_TARGETS: ${error}`);
  const dialect: Dialect = e.DATABASE_URL.startsWith('file:') ? 'sqlite' : 'postgresql';
  if (dialect === 'postgresql' && !e.SECRET_KEY && !invalid.has('SECRET_KEY')) {
    problems.push('SECRET_KEY: required with PostgreSQL (every instance must share it); generate one with: openssl rand -base64 32');
  }
  const webConcurrency = e.WEB_CONCURRENCY === 'auto' ? Math.max(1, machine.availableParallelism()) : Number(e.WEB_CONCURRENCY);
  if (webConcurrency > 1 && !e.REDIS_URL && !invalid.has('REDIS_URL')) {
    problems.push(
      `WEB_CONCURRENCY: ${webConcurrency} processes need REDIS_URL: the live feed, API key revocations and rate limits reach every process through Redis`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const workerIndex = e.VOTE_RELAY_WORKER_INDEX ?? null;
  const baseInstanceId = e.INSTANCE_ID ?? defaultInstanceId(machine, e.PORT);
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const config: Config = {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dialect,
    dataDir: dialect === 'sqlite' ? sqliteDataDir(e.DATABASE_URL) : null,
    publicBaseUrl,
    publicBaseUrlDefault: e.PUBLIC_BASE_URL === undefined,
    addressSettings: { hooks: e.HOOK_BASE_URL ? 'HOOK_BASE_URL' : 'PUBLIC_BASE_URL', votifier: e.VOTIFIER_HOST ? 'VOTIFIER_HOST' : 'PUBLIC_BASE_URL' },
    hookBaseUrl: (e.HOOK_BASE_URL ?? `${publicBaseUrl}/hooks`).replace(/\/+$/, ''),
    votifierPort: e.VOTIFIER_PORT,
    votifierHost: e.VOTIFIER_HOST ?? new URL(publicBaseUrl).hostname,
    votifierTimeoutMs: e.VOTIFIER_TIMEOUT_MS,
    votifierMaxConnectionsPerIp: e.VOTIFIER_MAX_CONNECTIONS_PER_IP,
    votifierDedicatedPorts: e.VOTIFIER_DEDICATED_PORTS
      ? { from: Number(e.VOTIFIER_DEDICATED_PORTS.split('-')[0]), to: Number(e.VOTIFIER_DEDICATED_PORTS.split('-')[1]) }
      : null,
    redisUrl: e.REDIS_URL ?? null,
    secretKey: e.SECRET_KEY ?? null,
    privateTargets: privateTargets.value,
    retryScheduleMs,
    retryJitter: e.RETRY_JITTER,
    signingSecretOverlapMs: overlap[0],
    duplicateWindowMs,
    callbackDisableAfterMs,
    recoveryIntervalMs,
    replayMaxVotes: e.REPLAY_MAX_VOTES,
    metricsToken: e.METRICS_TOKEN ?? null,
    voteRetentionDays: e.VOTE_RETENTION_DAYS,
    rawPayloadRetentionDays: e.RAW_PAYLOAD_RETENTION_DAYS,
    retentionIntervalMs,
    topggApiUrl: e.TOPGG_API_URL.replace(/\/+$/, ''),
    discordApiUrl: e.DISCORD_API_URL.replace(/\/+$/, ''),
    chatMaxAttempts: e.CHAT_MAX_ATTEMPTS,
    chatTimeoutMs: e.CHAT_TIMEOUT_MS,
    pullMaxAttempts: e.PULL_MAX_ATTEMPTS,
    writeBatchMax: e.WRITE_BATCH_MAX,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? null,
    hookLogRetentionMs,
    hookLogMaxPerProvider: e.HOOK_LOG_MAX_PER_PROVIDER,
    hookLogMaxRefusedPerAddress: e.HOOK_LOG_MAX_REFUSED_PER_ADDRESS,
    apiRateLimitPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
    hookRateLimitPerMinute: e.HOOK_RATE_LIMIT_PER_MINUTE,
    ipRateLimitPerMinute: e.IP_RATE_LIMIT_PER_MINUTE,
    hookFailureLimitPerMinute: e.HOOK_FAILURE_LIMIT_PER_MINUTE,
    votePageRateLimitPerMinute: e.VOTE_PAGE_RATE_LIMIT_PER_MINUTE,
    deliveryConcurrency: e.DELIVERY_CONCURRENCY,
    deliveryEnabled: e.DELIVERY_ENABLED,
    deliveryThread: e.DELIVERY_THREAD,
    writeThread: e.WRITE_THREAD,
    deliveryLeaseMs: e.DELIVERY_LEASE_MS,
    deliveryPollMs: e.DELIVERY_POLL_MS,
    alertsIntervalMs: e.ALERTS_INTERVAL_MS,
    remindersIntervalMs: e.REMINDERS_INTERVAL_MS,
    remindersBatch: e.REMINDERS_BATCH,
    rconOnlinePollMs,
    roleExpiryIntervalMs,
    graphqlIntrospection: e.GRAPHQL_INTROSPECTION,
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    httpHeadersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    httpRequestTimeoutMs: Math.max(e.HTTP_REQUEST_TIMEOUT_MS, e.HTTP_HEADERS_TIMEOUT_MS),
    webConcurrency,
    instanceId: workerIndex === null ? baseInstanceId : `${baseInstanceId}/${workerIndex}`,
    workerIndex,
    envFile,
  };
  return Object.freeze(config);
}
