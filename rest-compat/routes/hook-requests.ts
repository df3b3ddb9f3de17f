// The hook request log: GET /v1/providers/:key/requests (a provider's) and GET /v1/hook-requests (the
// organization-level one: requests to a key no provider has), paged in `meta` as the vote list is.
import type { Request } from 'express';
import { onlyIfSet, type RestRoute } from '../route.js';

const ENTRY_FIELDS = `id received_at: receivedAt client_ip: clientIp method path protocol outcome status error_code: errorCode reason hint
  voter_name: voterName repaired_from: repairedFrom vote_id: voteId duration_ms: durationMs headers body body_bytes: bodyBytes provider_key: providerKey matched`;

const DOCUMENT = `query ($provider: String, $outcome: HookRequestOutcome, $from: String, $to: String, $page: Int, $limit: Int) {
  hookRequests(provider: $provider, outcome: $outcome, from: $from, to: $to, page: $page, limit: $limit) {
    page limit total pages
    requests { ${ENTRY_FIELDS} }
    dropped { client_ip: clientIp count first_at: firstAt last_at: lastAt } } }`;

const filters = (req: Request) => ({
  outcome: req.query.outcome,
  from: req.query.from,
  to: req.query.to,
  page: req.query.page,
  limit: req.query.limit,
});

type Result = { hookRequests: { page: number; limit: number; total: number; pages: number; requests: unknown[]; dropped: unknown[] } };
// repaired_from only on an entry whose vote name repair gave to the clicker (README "Vote page").
const repairedIfSet = onlyIfSet(['repaired_from']);
const data = (r: Result) => ({
  requests: r.hookRequests.requests.map((entry) => repairedIfSet(entry as Record<string, unknown>)),
  dropped: r.hookRequests.dropped,
});
const meta = (r: Result) => ({ page: r.hookRequests.page, limit: r.hookRequests.limit, total: r.hookRequests.total, pages: r.hookRequests.pages });

export const hookRequestRoutes: RestRoute[] = [
  {
    method: 'get',
    path: '/providers/:key/requests',
    summary: "A provider's hook request log, newest first (paginated)",
    document: DOCUMENT,
    variables: (req) => ({ provider: req.params.key, ...filters(req) }),
    data,
    meta,
  },
  {
    method: 'get',
    path: '/hook-requests',
    summary: 'The organization-level hook request log: requests to a provider key no provider has, newest first (paginated)',
    document: DOCUMENT,
    variables: filters,
    data,
    meta,
  },
];
