// Voters (README "Voters"): one by id, a search, merges and splits, and a voter's erasure across every provider of
// the organization (full scope).
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import { IDENTITY_KINDS } from '../../domain/voter-identity.js';
import { VoterStanding } from '../stats/stats.graphql.js';
import { VoteConnection, VoteRef, voteConnection } from '../votes/votes.graphql.js';
import { oneOf } from '../../graphql/stored-enum.js';

const ErasedVoterRef = builder.simpleObject('ErasedVoter', {
  description: "What an erasure removed: the voter's votes (with payloads), their delivery attempts, and rollup rows",
  fields: (t) => ({ voterName: t.string(), votesDeleted: t.int(), attemptsDeleted: t.int(), rollupRowsDeleted: t.int() }),
});

builder.mutationField('eraseVoter', (t) =>
  t.field({
    type: ErasedVoterRef,
    description:
      "Removes one voter's votes, payloads, delivery attempts and rollup rows in every provider (name matched case-insensitively); statistics stay consistent",
    nullable: true,
    authScopes: { access: { scope: 'full' } },
    args: { voterName: t.arg.string({ required: true }) },
    resolve: (_root, { voterName }, ctx) => ctx.services.voters.erase(requireViewer(ctx.auth).organizationId, voterName),
  }),
);

const IdentityKindEnum = builder.enumType('VoterIdentityKind', {
  description:
    'How a voter is known (README "Voters"): discord (a user id), minecraft (a Java name), minecraft_uuid, bedrock (a name with the organization\'s bedrockPrefix), hytale, name (any other name)',
  values: IDENTITY_KINDS,
});

const VoterIdentityRef = builder.simpleObject('VoterIdentity', {
  fields: (t) => ({
    kind: t.field({ type: IdentityKindEnum }),
    value: t.string({ description: 'Names lower-cased; an id as sent' }),
    createdAt: t.field({ type: 'DateTime' }),
  }),
});
/** An identity row as the API shows it: its stored kind checked against the enum, not cast. */
const shownIdentity = (i: { kind: string; value: string; createdAt: Date }) => ({
  kind: oneOf(IDENTITY_KINDS, i.kind, 'voter identity kind'),
  value: i.value,
  createdAt: i.createdAt,
});

type VoterShape = { id: string; organizationId: string; displayName: string; createdAt: Date; nameAt: Date };

const VoterRef = builder.objectRef<VoterShape>('Voter').implement({
  description: 'One person across names, sites and platforms (README "Voters"): their identities, standing and votes',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'vtr_…' }),
    displayName: t.exposeString('displayName', { description: 'The name of their latest vote, as the site sent it' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    identities: t.field({
      type: [VoterIdentityRef],
      // A voter read by id has them already; a search's voters read theirs (the voter row is not read again).
      resolve: async (v, _a, ctx) =>
        ('identities' in v
          ? (v.identities as { kind: string; value: string; createdAt: Date }[])
          : await ctx.services.voters.identitiesOf(v.organizationId, v.id)
        ).map(shownIdentity),
    }),
    standing: t.field({
      type: VoterStanding,
      nullable: true,
      description: 'null for a voter with no counted vote',
      resolve: (v, _a, ctx) => ctx.services.stats.standingOf(v.organizationId, v.id, ctx.deps.clock.now()),
    }),
    votes: t.connection(
      {
        type: VoteRef,
        description: 'Their votes, newest first',
        resolve: (v, args, ctx) => voteConnection(ctx, v.organizationId, { ...args, voterId: v.id }),
      },
      VoteConnection,
    ),
  }),
});

const VoterPageRef = builder.simpleObject('VoterPage', {
  fields: (t) => ({ voters: t.field({ type: [VoterRef] }), page: t.int(), limit: t.int(), total: t.int(), pages: t.int() }),
});

builder.queryField('voter', (t) =>
  t.field({
    type: VoterRef,
    nullable: true,
    description: 'One voter by id (vtr_…)',
    authScopes: { access: { scope: 'read' } },
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.voters.get(requireViewer(ctx.auth).organizationId, id),
  }),
);

builder.queryField('voters', (t) =>
  t.field({
    type: VoterPageRef,
    nullable: true,
    description: 'Voters whose name or one of whose identities starts with `search` (case-insensitive), by name; paged',
    authScopes: { access: { scope: 'read' } },
    args: { search: t.arg.string(), page: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, ctx) => ctx.services.voters.search(requireViewer(ctx.auth).organizationId, args),
  }),
);

builder.mutationField('mergeVoters', (t) =>
  t.field({
    type: VoterRef,
    nullable: true,
    description:
      'Merges voter `other` into voter `id`: its votes, day counts, reminders, opt-out and identities move exactly, and one standing is made again from the merged days',
    authScopes: { access: { scope: 'full' } },
    args: { id: t.arg.string({ required: true }), other: t.arg.string({ required: true }) },
    resolve: (_root, { id, other }, ctx) => ctx.services.voters.merge(requireViewer(ctx.auth).organizationId, id, other),
  }),
);

builder.mutationField('splitVoterIdentity', (t) =>
  t.field({
    type: VoterRef,
    nullable: true,
    description:
      'Splits one identity off voter `id` into a new voter (returned), with the votes that came with it (sent under that name, or carrying that Discord id); both standings are made again',
    authScopes: { access: { scope: 'full' } },
    args: { id: t.arg.string({ required: true }), kind: t.arg({ type: IdentityKindEnum, required: true }), value: t.arg.string({ required: true }) },
    resolve: (_root, { id, kind, value }, ctx) => ctx.services.voters.split(requireViewer(ctx.auth).organizationId, id, { kind, value }),
  }),
);
