// {hook_base_url}/<org_slug>/<provider_key>[/<secret>]: POST (JSON or form) and GET (query) deliveries. The
// route names the target in its variables; the request itself (headers, query, the exact body bytes) reaches
// receiveVote by reference in the context, read once here.
import type { Request } from 'express';
import { hookRequest } from '../../src/http/hook-request.js';
import type { RestRoute } from '../route.js';

const DOCUMENT = `mutation ($input: HookDeliveryInput!) { receiveVote(input: $input) {
  received vote_id: voteId duplicate test ignored } }`;

function target(req: Request) {
  return { input: { org_slug: req.params.org, provider_key: req.params.provider, path_secret: req.params.secret, method: req.method } };
}

/** Only the fields that apply: {received, vote_id, duplicate} or {received, test} or {received, ignored}. */
const receipt = (r: { receiveVote: Record<string, unknown> }) => Object.fromEntries(Object.entries(r.receiveVote).filter(([, v]) => v !== null));

export const hookRoutes: RestRoute[] = ['post', 'get'].flatMap((method) =>
  ['/:org/:provider', '/:org/:provider/:secret'].map(
    (path): RestRoute => ({
      method: method as 'post' | 'get',
      path,
      document: DOCUMENT,
      variables: target,
      context: (req) => ({ hookRequest: hookRequest(req) }),
      omitMeta: true,
      data: receipt,
      summary: method === 'post' ? 'Receive a vote (a POSTed JSON or form body)' : 'Receive a vote (a GET, fields in the query string)',
      rawBody: true,
      access:
        "No API key: the provider's secret authenticates the delivery (in the path, a header, the query string or a signature, as the provider is set up).",
      errors: ['AUTH_FAILED', 'ORG_SUSPENDED', 'PROVIDER_DISABLED'],
    }),
  ),
);
