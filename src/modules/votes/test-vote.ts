// The owner's test vote (README "Test votes"): the delivery the provider's site would send for a voter, built from
// the provider's own settings (auth method, payload source, votee_path, event filter, body timestamp) and, when it
// was made from a template, that site's example, so that it goes through the provider's real hook path.
import { parsePath, readPath } from '../../base/json-path.js';
import { MAX_VOTIFIER_USERNAME } from '../../votifier/protocol.js';
import type { AuthConfig, AuthMethodDefinition } from '../providers/auth-methods/auth-method.js';
import type { ProviderTemplate } from '../providers/templates/catalogue.js';

/** A clearly fake voter that is still a valid Minecraft name (3–16 letters, digits, underscores), so game servers take it. */
export const DEFAULT_TEST_VOTER = 'VoteRelayTest';

/** What a test delivery is built from: the provider's settings as stored. */
export interface TestVoteProvider extends AuthConfig {
  voteePath: string;
  eventPath: string | null;
  voteEventsJson: string | null;
  testEventsJson: string | null;
  bodyTimestampPath: string | null;
  bodyTimestampMaxAgeS: number | null;
}

export interface TestDelivery {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  query: Record<string, string>;
  pathSecret?: string;
  rawBody: Buffer;
}

const list = (json: string | null): string[] => {
  const parsed = json ? (JSON.parse(json) as unknown) : null;
  return Array.isArray(parsed) ? parsed.map(String) : [];
};

/** Sets `value` at a votee_path-style path (`$.`, dots, `[n]`), making the objects and arrays on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = parsePath(path);
  if (!segments) return;
  let current: Record<string | number, unknown> = target;
  segments.forEach((segment, i) => {
    if (i === segments.length - 1) {
      current[segment] = value;
      return;
    }
    const next = current[segment];
    const wantsArray = typeof segments[i + 1] === 'number';
    if (next === null || typeof next !== 'object' || Array.isArray(next) !== wantsArray) current[segment] = wantsArray ? [] : {};
    current = current[segment] as Record<string | number, unknown>;
  });
}

/**
 * A body timestamp the provider accepts, in the unit of the value already there (epoch seconds when there is none):
 * now floored to half the allowed age, so a test vote sent again soon after is the same body (a duplicate, as the
 * README's Duplicates explains) and still young enough.
 */
function freshTimestamp(old: unknown, maxAgeS: number, nowMs: number): number | string {
  const step = Math.max(1, Math.floor(maxAgeS / 2)) * 1000;
  const at = Math.floor(nowMs / step) * step;
  if (typeof old === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(old)) return new Date(at).toISOString();
  if ((typeof old === 'number' && old >= 1e11) || (typeof old === 'string' && /^\d{12,13}$/.test(old))) return typeof old === 'string' ? String(at) : at;
  return typeof old === 'string' ? String(Math.floor(at / 1000)) : Math.floor(at / 1000);
}

/** Flat text fields for a form body or a query string: nested values as JSON, as a site would have to send them. */
function flatFields(example: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(example)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
  );
}

/**
 * Why a test voter name cannot be used; null when it can. Like any voter name (ingest's rules: not empty, at most
 * 256 characters, no control characters); a Votifier provider's at most 16, which NuVotifier allows.
 */
export function testVoterProblem(name: string, votifier: boolean, maxLength: number): string | null {
  if (name === '') return 'must not be empty';
  if (name.length > maxLength) return `must be at most ${maxLength} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this expression finds
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters (NUL, line breaks, …)';
  if (votifier && name.length > MAX_VOTIFIER_USERNAME) {
    return `must be at most ${MAX_VOTIFIER_USERNAME} characters for a Votifier provider (NuVotifier refuses longer names)`;
  }
  return null;
}

/**
 * The delivery the provider's site would send for `voterName`, signed or carrying the secret as the provider's
 * auth method expects (its `authenticate`). A template provider starts from the template's example; a custom one from
 * an empty body; either way the voter is put at the provider's votee_path, the first of its vote_events at its
 * event_path, and a fresh time at its body_timestamp_path.
 */
export function buildTestDelivery(
  provider: TestVoteProvider,
  method: AuthMethodDefinition,
  secret: string,
  voterName: string,
  template: ProviderTemplate | undefined,
  nowMs: number,
): TestDelivery {
  const nowSeconds = Math.floor(nowMs / 1000);
  const example = structuredClone(template?.payloadExample ?? {}) as Record<string, unknown>;
  if (provider.authMethod === 'votifier') {
    // The Votifier method signs its own v2 message from these fields (username = the voter).
    const fields = { serviceName: template?.name ?? 'Vote Relay test', address: '127.0.0.1', ...example, username: voterName };
    const proof = method.authenticate(provider, secret, Buffer.from(JSON.stringify(fields)), nowSeconds);
    return { method: 'POST', headers: proof.headers, query: proof.query, pathSecret: proof.pathSecret, rawBody: proof.body ?? Buffer.alloc(0) };
  }

  setPath(example, provider.voteePath, voterName);
  if (provider.eventPath) {
    const voteEvents = list(provider.voteEventsJson);
    if (voteEvents.length > 0) setPath(example, provider.eventPath, voteEvents[0]);
    // Without vote events, a missing value is a vote; an example value that names a test ping is taken out.
    else if (list(provider.testEventsJson).includes(String(readPath(example, provider.eventPath)))) setPath(example, provider.eventPath, null);
  }
  if (provider.bodyTimestampPath) {
    const maxAgeS = provider.bodyTimestampMaxAgeS ?? 300;
    setPath(example, provider.bodyTimestampPath, freshTimestamp(readPath(example, provider.bodyTimestampPath), maxAgeS, nowMs));
  }

  const source = provider.payloadSource;
  const get = source === 'query';
  const body = get
    ? Buffer.alloc(0)
    : source === 'form'
      ? Buffer.from(new URLSearchParams(flatFields(example)).toString())
      : Buffer.from(JSON.stringify(example));
  const style = template?.authMethod === provider.authMethod ? template.signatureFormat : null;
  const proof = method.authenticate(provider, secret, body, nowSeconds, style);
  const contentType = source === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  return {
    method: get ? 'GET' : 'POST',
    headers: { ...(get ? {} : { 'content-type': contentType }), ...proof.headers },
    query: { ...(get ? flatFields(example) : {}), ...proof.query },
    pathSecret: proof.pathSecret,
    rawBody: proof.body ?? body,
  };
}
