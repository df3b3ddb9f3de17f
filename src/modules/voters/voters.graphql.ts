// A voter's erasure across every provider of the organization (full scope).
import { builder } from '../../graphql/builder.js';
import { requireViewer } from '../../auth/access.js';
import type { ErasedVoter } from './voters.service.js';

const ErasedVoterRef = builder.objectRef<ErasedVoter>('ErasedVoter').implement({
  description: "What an erasure removed: the voter's votes (with payloads), their delivery attempts, and rollup rows",
  fields: (t) => ({
    voterName: t.exposeString('voterName'),
    votesDeleted: t.exposeInt('votesDeleted'),
    attemptsDeleted: t.exposeInt('attemptsDeleted'),
    rollupRowsDeleted: t.exposeInt('rollupRowsDeleted'),
  }),
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
