// The inbound hook as a mutation: the REST hook route hands the request over by reference (the context's
// hookRequest: headers, query, the exact body bytes); a /graphql caller sends it in the input (the body as base64).
// The provider's secret, not an API key, authenticates it. Called on /graphql it has the hook's limits
// (body size, budgets), which the ingest service applies to both.
import { builder } from '../../graphql/builder.js';
import { validationError } from '../../base/errors.js';
import { requireViewer } from '../../auth/access.js';
import type { HookReceipt } from './ingest.service.js';
import type { HookRequest } from '../providers/auth-methods/auth-method.js';
import { DEFAULT_TEST_VOTER } from './test-vote.js';

const HookDeliveryInput = builder.inputType('HookDeliveryInput', {
  fields: (t) => ({
    orgSlug: t.string({ required: true }),
    providerKey: t.string({ required: true }),
    pathSecret: t.string(),
    method: t.string({ required: true }),
    headers: t.field({ type: 'JSON', description: 'Header names → values (required on /graphql)' }),
    query: t.field({ type: 'JSON', description: 'Query parameters (required on /graphql)' }),
    rawBodyBase64: t.string({ description: 'The exact request body, base64; signatures are over these bytes (required on /graphql)' }),
  }),
});

const HookReceiptRef = builder.objectRef<HookReceipt>('HookReceipt').implement({
  fields: (t) => ({
    received: t.boolean({ resolve: () => true }),
    voteId: t.string({ nullable: true, resolve: (r) => ('voteId' in r ? r.voteId : null) }),
    duplicate: t.boolean({ nullable: true, resolve: (r) => ('duplicate' in r ? r.duplicate : null) }),
    test: t.boolean({ nullable: true, resolve: (r) => ('test' in r ? r.test : null) }),
    ignored: t.boolean({ nullable: true, resolve: (r) => ('ignored' in r ? r.ignored : null) }),
    testVote: t.boolean({
      nullable: true,
      description: 'sendTestVote only: true when the vote was stored as a test vote (or is a duplicate of one); null for site deliveries',
      resolve: (r) => ('testVote' in r && r.testVote ? true : null),
    }),
    voterName: t.string({
      nullable: true,
      description: 'sendTestVote only: the voter the test vote was sent for',
      resolve: (r) => ('testVote' in r && r.testVote ? r.testVote.voterName : null),
    }),
    deliverToGameServers: t.boolean({
      nullable: true,
      description: 'sendTestVote only: whether Votifier callbacks and the plugin pull queue get the test vote too',
      resolve: (r) => ('testVote' in r && r.testVote ? r.testVote.deliverToGameServers : null),
    }),
  }),
});

const stringMap = (value: unknown, field: string): Record<string, string | undefined> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw validationError([{ field, message: 'must be an object' }]);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [field === 'headers' ? k.toLowerCase() : k, typeof v === 'string' ? v : undefined]));
};

/** On /graphql the request travels in the input; every part of it is required there. */
function requestFromInput(input: { method: string; headers?: unknown; query?: unknown; rawBodyBase64?: string | null }): HookRequest {
  const missing = (['headers', 'query', 'rawBodyBase64'] as const).filter((field) => input[field] === undefined || input[field] === null);
  if (missing.length > 0) throw validationError(missing.map((field) => ({ field: `input.${field}`, message: 'is required' })));
  return {
    method: input.method.toUpperCase(),
    headers: stringMap(input.headers, 'headers'),
    query: stringMap(input.query, 'query'),
    rawBody: Buffer.from(input.rawBodyBase64!, 'base64'),
  };
}

builder.mutationField('receiveVote', (t) =>
  t.field({
    type: HookReceiptRef,
    description: 'An inbound vote delivery from a voting site (what /hooks/<org>/<provider> maps onto)',
    authScopes: { public: true },
    args: { input: t.arg({ type: HookDeliveryInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.services.ingest.receive(
        // Never a test vote: only sendTestVote sets that, so no site delivery can make itself one.
        {
          orgSlug: input.orgSlug,
          providerKey: input.providerKey,
          pathSecret: input.pathSecret ?? undefined,
          ...(ctx.hookRequest ?? requestFromInput(input)),
          testVote: undefined,
        },
        { clientIp: ctx.clientIp },
      ),
  }),
);

builder.mutationField('sendTestVote', (t) =>
  t.field({
    type: HookReceiptRef,
    nullable: true,
    description:
      'Sends a test vote through the provider\'s own hook path, as its site would deliver it (auth, parsing, duplicate rule), stored as a test vote: never counted, delivered marked as a test (README "Test votes")',
    authScopes: { access: { scope: 'full' } },
    args: {
      key: t.arg.string({ required: true }),
      voterName: t.arg.string({ description: `The voter (default ${DEFAULT_TEST_VOTER})` }),
      deliverToGameServers: t.arg.boolean({
        description: 'Also to Votifier callbacks and the plugin pull queue, which cannot tell a test from a vote (default false)',
      }),
    },
    resolve: (_root, { key, voterName, deliverToGameServers }, ctx) =>
      ctx.services.ingest.sendTestVote(requireViewer(ctx.auth), key, { voterName, deliverToGameServers }, { clientIp: ctx.clientIp }),
  }),
);
