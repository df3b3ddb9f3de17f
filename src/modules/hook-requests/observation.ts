// What every hook request and Votifier session ended as, told to whoever watches (the hook request log, the
// operator's log lines) right after it was answered. Watchers must be cheap and must not throw: they run on the
// hook's path, after the answer is decided.

/** How a hook request ended (the request log's `outcome`). */
export type HookOutcome = 'accepted' | 'duplicate' | 'test' | 'ignored' | 'refused';

/** http: a hook URL; votifier_v1/v2: a Votifier session; test_vote: the dashboard's or API's test vote. */
export type HookProtocol = 'http' | 'votifier_v1' | 'votifier_v2' | 'test_vote';

/** What a watcher may need to know of the provider to explain or redact (never its secret). */
export interface ObservedProvider {
  id: string;
  key: string;
  authMethod: string;
  authField: string;
  authTimestampField: string | null;
  payloadSource: string;
}

export interface HookObservation {
  receivedAt: Date;
  durationMs: number;
  /** As addressed, lower-cased (a mistyped key stays as typed). */
  orgSlug: string;
  providerKey: string;
  /** Set once the slug named an organization; null when it named none. */
  organizationId: string | null;
  /** Set once the key named a provider of that organization. */
  provider: ObservedProvider | null;
  clientIp: string;
  method: string;
  /** The request path as received (secret segments are redacted by whoever stores or prints it). */
  path: string;
  protocol: HookProtocol;
  outcome: HookOutcome;
  /** The HTTP status answered (Votifier: what the same refusal answers over HTTP; 200 when accepted). */
  status: number;
  errorCode: string | null;
  reason: string | null;
  voterName: string | null;
  /** The name the site sent, when name repair gave the vote to the clicker (README "Vote page"); absent: none. */
  repairedFrom?: string | null;
  /** The vote's public id (vt_…), accepted or duplicate. */
  voteId: string | null;
  /** Header names (lower case) → values, as received: watchers redact. */
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  body: Buffer;
  /** The request was a test vote sent by the owner (POST /v1/providers/:key/test-vote). */
  testVote: boolean;
}

export type HookWatcher = (observation: HookObservation) => void;

export interface HookObservers {
  watch(watcher: HookWatcher): () => void;
  tell(observation: HookObservation): void;
}

export function createHookObservers(onError: (err: unknown) => void): HookObservers {
  const watchers = new Set<HookWatcher>();
  return {
    watch(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    tell(observation) {
      for (const watcher of watchers) {
        try {
          watcher(observation);
        } catch (err) {
          onError(err);
        }
      }
    },
  };
}

/** What a refusal answered before ingest (a body over the limit, a Votifier session no provider fit) knows of itself. */
export interface EarlyRefusal {
  receivedAt: Date;
  durationMs: number;
  orgSlug: string;
  providerKey: string;
  /** Known only where the refusal happened at a provider's own door (a Votifier provider's own port). */
  organizationId?: string | null;
  provider?: ObservedProvider | null;
  clientIp: string;
  method: string;
  path: string;
  protocol: HookProtocol;
  status: number;
  errorCode: string;
  reason: string;
  headers?: Record<string, string | undefined>;
  query?: Record<string, string | undefined>;
  body?: Buffer;
}

/** The observation of a request refused before ingest ran: no vote, no voter, nothing stored. */
export function refusedBeforeIngest(refusal: EarlyRefusal): HookObservation {
  return {
    organizationId: null,
    provider: null,
    headers: {},
    query: {},
    body: Buffer.alloc(0),
    ...refusal,
    outcome: 'refused',
    voterName: null,
    voteId: null,
    testVote: false,
  };
}
