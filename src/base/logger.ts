// The service's log (pino): one JSON object a line by default, human-readable lines on a terminal or with
// LOG_FORMAT=pretty. Nothing secret may reach it: known secret fields are redacted by name, and every line is
// scrubbed of the shapes a secret takes (API and plugin keys, signing secrets, bearer tokens, URL credentials)
// before it is written, whichever field or error message carried it.
import pino, { type DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type Logger = pino.Logger;
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  /** json or pretty; unset: pretty when stdout is a terminal (README, LOG_FORMAT). */
  format?: LogFormat | null;
  /** Where lines go (tests read them); stdout by default. */
  destination?: DestinationStream;
}

/** LOG_FORMAT when set; otherwise pretty on a terminal, JSON for everything that reads logs as data. */
export function resolveLogFormat(configured: LogFormat | null | undefined, stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return configured ?? (stdout.isTTY ? 'pretty' : 'json');
}

/**
 * Field names whose values are secret wherever they appear (top level, or one level down, as in
 * `{ callback: { authSecret } }` or `{ headers: { authorization } }`). Bodies are never logged whole.
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'authValue',
  'auth_value',
  'authSecret',
  'auth_secret',
  'secret',
  'signingSecret',
  'signing_secret',
  'apiToken',
  'api_token',
  'token',
  'password',
  'signature',
  'rawBody',
  'raw_body',
  'body',
];
const REDACT_PATHS = [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`), '*.key', 'req.headers.authorization', 'req.headers.cookie'];

/**
 * The shapes our own secrets take (src/auth/api-key-token.ts, src/delivery/signing.ts), a bearer credential and
 * a URL's user:password. A line is JSON text here, so a match stops at a quote or a backslash.
 */
const SECRET_SHAPES: [RegExp, string][] = [
  [/\b(vr_live_|vr_plugin_|whsec_)[^\s"'\\,;]+/g, '$1[redacted]'],
  [/\b(Bearer|Basic)\s+[^\s"'\\,;]+/gi, '$1 [redacted]'],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@"'\\]+@/gi, '$1[redacted]@'],
];

export function scrubSecrets(line: string): string {
  let out = line;
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out;
}

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const format = resolveLogFormat(options.format);
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  const stream: DestinationStream =
    format === 'pretty' ? prettyLines(destination, options.destination === undefined && Boolean(process.stdout.isTTY)) : destination;
  return pino(
    {
      level,
      base: { service: 'vote-relay' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: { streamWrite: scrubSecrets },
    },
    stream,
  );
}

/** Formats each JSON line for a person, in this thread and synchronously (a fatal line is out before exit). */
function prettyLines(destination: DestinationStream, colorize: boolean): DestinationStream {
  const prettify = prettyFactory({
    colorize,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    singleLine: false,
  });
  return { write: (line: string) => destination.write(prettify(line)) };
}

/**
 * Holds a kind of line to one per key and interval (a receiver that is down fails every delivery sent to it):
 * `take` answers null when this line is to be left out (it is counted), or how many were left out since the key's
 * last line; `drain` hands over the counts whose interval is over, for a line of their own, so a count is printed
 * even when no further line of its key comes. At most `maxKeys` keys are remembered; the oldest are forgotten.
 */
export function createLineBudget<T>(intervalMs = 10_000, maxKeys = 1_000, now: () => number = Date.now) {
  const keys = new Map<string, { at: number; skipped: number; about: T }>();
  const seconds = (at: number, since: number) => Math.max(1, Math.round((at - since) / 1000));
  return {
    /** `about`: what `drain` reports this key's left-out lines as. */
    take(key: string, about: T): { skipped: number; seconds: number } | null {
      const at = now();
      const seen = keys.get(key);
      if (seen && at - seen.at < intervalMs) {
        seen.skipped++;
        return null;
      }
      const result = { skipped: seen?.skipped ?? 0, seconds: seen ? seconds(at, seen.at) : 0 };
      keys.delete(key);
      if (keys.size >= maxKeys) keys.delete(keys.keys().next().value!);
      keys.set(key, { at, skipped: 0, about });
      return result;
    },
    /** Left-out counts whose interval is over (`all`: every one, at shutdown); quiet keys are forgotten. */
    drain(all = false): { about: T; skipped: number; seconds: number }[] {
      const at = now();
      const out: { about: T; skipped: number; seconds: number }[] = [];
      for (const [key, entry] of keys) {
        if (!all && at - entry.at < intervalMs) continue;
        if (entry.skipped === 0) {
          keys.delete(key);
          continue;
        }
        out.push({ about: entry.about, skipped: entry.skipped, seconds: seconds(at, entry.at) });
        entry.skipped = 0;
        entry.at = at;
      }
      return out;
    },
  };
}
